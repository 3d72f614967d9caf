package io.zkgroups.tool.cli;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** {@code zkgroups --version}: the version the build wrote into {@code build.properties}, and the Java running it. */
public final class BuildVersion implements IVersionProvider {

    private static final String RESOURCE = "/io/zkgroups/tool/build.properties";

    /** The project version of this build, e.g. {@code 0.1.0}. */
    public static String version() {
        try (InputStream in = BuildVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath: a broken build");
            }
            Properties props = new Properties();
            props.load(in);
            String version = props.getProperty("version");
            if (version == null || version.isBlank() || version.contains("${")) {
                throw new IllegalStateException(RESOURCE + " has no filtered version: '" + version + "'");
            }
            return version;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[]{
                "zkgroups " + version(),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ", "
                        + System.getProperty("java.home") + ")"};
    }
}
