package io.zkgroups.it.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Debian's chromium and chromedriver for the browser test: installed with apt-get where missing and we are root. */
final class Chromium {

    private Chromium() {
    }

    /** Null when both are there (installing them if it can); otherwise why they cannot be had. */
    static synchronized String ensure(Path chromium, Path chromedriver) {
        if (Files.isExecutable(chromium) && Files.isExecutable(chromedriver)) {
            return null;
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            return chromium + " or " + chromedriver + " is missing and the tests do not run as root to install them "
                    + "(apt-get install chromium chromium-driver)";
        }
        try {
            for (String[] command : new String[][]{{"apt-get", "update", "-qq"},
                    {"apt-get", "install", "-y", "-qq", "chromium", "chromium-driver"}}) {
                Process p = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(Path.of("target", "apt-chromium.log").toFile()).start();
                p.getOutputStream().close();
                if (!p.waitFor(15, TimeUnit.MINUTES) || p.exitValue() != 0) {
                    return String.join(" ", command) + " failed (see target/apt-chromium.log)";
                }
            }
        } catch (java.io.IOException e) {
            return "cannot run apt-get to install chromium and chromium-driver: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while installing chromium";
        }
        return Files.isExecutable(chromium) && Files.isExecutable(chromedriver) ? null
                : "apt-get installed chromium and chromium-driver, yet " + chromium + " or " + chromedriver + " is missing";
    }
}
