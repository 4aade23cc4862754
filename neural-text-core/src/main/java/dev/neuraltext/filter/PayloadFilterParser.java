package dev.neuraltext.filter;

/** Parser of the compact filter syntax. (Being written: see issue 2.) */
final class PayloadFilterParser {

    private PayloadFilterParser() {
    }

    static PayloadFilter parse(String text) {
        throw new UnsupportedOperationException("filter syntax not implemented yet");
    }
}
