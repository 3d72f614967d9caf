package io.zkgroups.demo;

/** The demo saw something go wrong: it stops and says what, instead of printing success. */
final class DemoFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    DemoFailure(String message) {
        super(message);
    }
}
