package io.hbasesessions.spring.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.session.FlushMode;
import org.springframework.session.SaveMode;

/** The contract with every change written at once ({@code FlushMode.IMMEDIATE}). */
class ImmediateFlushRepositoryTest extends AbstractSessionRepositoryContractTest {

    @Override
    void configure(HBaseIndexedSessionRepository repository) {
        repository.setFlushMode(FlushMode.IMMEDIATE);
        repository.setSaveMode(SaveMode.ON_GET_ATTRIBUTE);
    }

    @Test
    void everyChangeIsOnTheOtherNodeBeforeAnySave() {
        HBaseSession session = nodeA.createSession();
        assertNotNull(nodeB.findById(session.getId()), "a new session is stored at once");
        session.setAttribute("cart", "pen");
        assertEquals("pen", nodeB.findById(session.getId()).getAttribute("cart"));
        session.setMaxInactiveInterval(Duration.ofMinutes(3));
        assertEquals(Duration.ofMinutes(3), nodeB.findById(session.getId()).getMaxInactiveInterval());
        session.removeAttribute("cart");
        assertNull(nodeB.findById(session.getId()).getAttribute("cart"));
        String oldId = session.getId();
        String newId = session.changeSessionId();
        assertNull(nodeB.findById(oldId));
        assertNotNull(nodeB.findById(newId));
    }
}
