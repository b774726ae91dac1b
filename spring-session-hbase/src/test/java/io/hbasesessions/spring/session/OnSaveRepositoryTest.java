package io.hbasesessions.spring.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.store.LockingMode;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreConfigurationException;
import org.junit.jupiter.api.Test;
import org.springframework.session.FlushMode;
import org.springframework.session.SaveMode;

/** The contract with Spring Session's defaults: written when the filter saves ({@code FlushMode.ON_SAVE}). */
class OnSaveRepositoryTest extends AbstractSessionRepositoryContractTest {

    @Override
    void configure(HBaseIndexedSessionRepository repository) {
        repository.setFlushMode(FlushMode.ON_SAVE);
        repository.setSaveMode(SaveMode.ON_SET_ATTRIBUTE);
    }

    @Test
    void nothingIsWrittenBeforeTheSave() {
        HBaseSession session = nodeA.createSession();
        session.setAttribute("cart", "pen");
        assertNull(nodeB.findById(session.getId()));
        nodeA.save(session);
        HBaseSession found = nodeB.findById(session.getId());
        found.setAttribute("cart", "book");
        assertEquals("pen", nodeA.findById(session.getId()).getAttribute("cart"));
    }

    @Test
    void pessimisticLockingIsRefusedWithTheReason() {
        StoreConfigurationException refused = assertThrows(StoreConfigurationException.class,
                () -> open(settings.toBuilder().set(Setting.LOCKING_MODE, LockingMode.PESSIMISTIC).build(), LOADER));
        assertTrue(refused.getMessage().contains("lockingMode=optimistic"), refused.getMessage());
    }

    @Test
    void saveModeAlwaysIsRefusedWithTheReason() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> nodeA.setSaveMode(SaveMode.ALWAYS));
        assertTrue(refused.getMessage().contains("concurrent requests"), refused.getMessage());
    }
}
