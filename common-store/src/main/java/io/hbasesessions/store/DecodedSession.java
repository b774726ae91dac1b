package io.hbasesessions.store;

import java.util.List;

/** A stored state read back: the record, and the attributes left out because they could not be read. */
record DecodedSession(SessionRecord record, List<String> unreadableAttributeNames) {
}
