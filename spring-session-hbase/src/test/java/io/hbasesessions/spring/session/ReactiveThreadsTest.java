package io.hbasesessions.spring.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.TestStores;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.session.events.AbstractSessionEvent;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The reactive repository never blocks the thread that calls it: called from a non-blocking thread (Reactor's
 * {@code parallel} threads are marked as such, as Netty's event loops are under Reactor Netty), each call that
 * reaches HBase runs on the repository's own bounded scheduler. Shown by where the store's work happens: the events
 * the repository publishes right after the store's save and delete, and the thread the found session arrives on.
 */
@ExtendWith(HBaseExtension.class)
class ReactiveThreadsTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void callsFromANonBlockingThreadRunTheStoreOnTheRepositorysBoundedThreads(EmbeddedHBase server,
            TestNamespace namespace) {
        Map<String, String> eventThreads = new ConcurrentHashMap<>();
        Scheduler eventLoop = Schedulers.newParallel("event-loop", 1);
        try (ReactiveHBaseIndexedSessionRepository repository = new ReactiveHBaseIndexedSessionRepository(
                TestStores.settings(server, namespace).build(), AbstractSessionRepositoryContractTest.LOADER,
                SessionSystem.SPRING_SESSION)) {
            repository.setApplicationEventPublisher(event -> eventThreads.put(
                    ((AbstractSessionEvent) event).getClass().getSimpleName(), threadAndKind()));

            HBaseSession session = onTheLoop(eventLoop, () -> repository.createSession().flatMap(created -> {
                created.setAttribute("cart", "pen");
                return repository.save(created).thenReturn(created);
            }));
            String foundOn = onTheLoop(eventLoop, () -> repository.findById(session.getId())
                    .map(found -> found.getAttribute("cart") + " on " + threadAndKind()));
            String indexReadOn = onTheLoop(eventLoop, () -> repository.findByPrincipalName("nobody")
                    .map(found -> found.size() + " on " + threadAndKind()));
            onTheLoop(eventLoop, () -> repository.deleteById(session.getId()).thenReturn(""));

            String ours = ReactiveHBaseIndexedSessionRepository.THREAD_NAME_PREFIX + "-";
            assertTrue(foundOn.startsWith("pen on " + ours) && foundOn.endsWith("may block"), foundOn);
            assertTrue(indexReadOn.startsWith("0 on " + ours), indexReadOn);
            assertEquals(List.of("SessionCreatedEvent", "SessionDeletedEvent"), eventThreads.keySet().stream().sorted()
                    .toList());
            eventThreads.forEach((event, thread) -> assertTrue(thread.startsWith(ours) && thread.endsWith("may block"),
                    event + " was published on " + thread + ", so the store's call ran there"));
        } finally {
            eventLoop.dispose();
        }
    }

    /** Subscribes on the one non-blocking thread, as a WebFlux handler on an event loop would, and waits here. */
    private static <T> T onTheLoop(Scheduler eventLoop, Supplier<Mono<T>> call) {
        return Mono.defer(() -> {
            assertTrue(Schedulers.isInNonBlockingThread(), "the test's caller is not on a non-blocking thread");
            return call.get();
        }).subscribeOn(eventLoop).block(WAIT);
    }

    private static String threadAndKind() {
        return Thread.currentThread().getName() + (Schedulers.isInNonBlockingThread() ? " must not block" : " may block");
    }
}
