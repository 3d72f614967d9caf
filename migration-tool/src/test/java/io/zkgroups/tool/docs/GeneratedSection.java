package io.zkgroups.tool.docs;

/**
 * A part of a hand-written page that the code writes: the lines between {@code <!-- generated: NAME -->} and the next
 * {@code <!-- end -->}.
 */
final class GeneratedSection {

    private static final String END = "<!-- end -->";

    private GeneratedSection() {
    }

    /** {@code page} with the section {@code name} holding {@code content}. */
    static String replace(String page, String name, String content) {
        String begin = "<!-- generated: " + name + " -->\n";
        int start = page.indexOf(begin);
        int end = start < 0 ? -1 : page.indexOf(END, start);
        if (start < 0 || end < 0) {
            throw new IllegalArgumentException("the page has no section " + begin.strip() + " ... " + END);
        }
        return page.substring(0, start + begin.length()) + content + page.substring(end);
    }
}
