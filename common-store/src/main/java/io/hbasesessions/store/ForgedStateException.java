package io.hbasesessions.store;

/**
 * A state cell that fails {@code stateProtection}: not written by a node holding one of the keys, or
 * written for another row or version. Already counted and logged by {@link StateSeal}.
 */
final class ForgedStateException extends CorruptSessionDataException {
    ForgedStateException(String message) {
        super(message);
    }
}
