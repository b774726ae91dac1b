package io.hbasesessions.store;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.AsyncTableRegionLocator;
import org.apache.hadoop.hbase.client.Row;

/**
 * Sends the single-row calls of concurrent requests that are bound for one region server together
 * ({@code coalesceCalls}): a call to a server with nothing in flight goes at once, on its own; calls
 * that arrive while one is in flight wait for it and then go as one multi-action. Nothing waits at low
 * load, and under load one RPC (one round trip, one queued call, one handler wake-up on the server)
 * serves many requests.
 *
 * <p>Calls are grouped by the server the client's region cache names; a row whose location the client
 * does not know yet is sent on its own (the client's lookup fills the cache). A flight that takes far
 * longer than a healthy round trip (a server that died, a region being moved) stops holding calls back:
 * later ones go on their own until it lands, so one failing region does not stall a whole server's lane
 * for longer than that.
 *
 * @param <C> the call ({@code Get}, {@code CheckAndMutate})
 * @param <R> its answer
 */
final class CallCoalescer<C extends Row, R> {

    /** Far above a healthy round trip on a saturated machine (tens of ms at p99), far below the call timeouts. */
    private static final long STALLED_FLIGHT_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /**
     * A region server runs a multi-action's calls one after another in one handler: a longer batch would
     * trade the server's parallelism for fewer RPCs. The rest waits for the next flight.
     */
    private static final int MAX_CALLS_PER_FLIGHT = 32;

    private final AsyncTableRegionLocator locator;
    private final Function<C, CompletableFuture<R>> alone;
    private final Function<List<C>, List<CompletableFuture<R>>> together;
    private final LiveCounters counters;
    private final ConcurrentMap<ServerName, Lane> lanes = new ConcurrentHashMap<>();

    /**
     * @param alone sends one call
     * @param together sends several calls as one multi-action, answering them in their order
     */
    CallCoalescer(AsyncTableRegionLocator locator, Function<C, CompletableFuture<R>> alone,
            Function<List<C>, List<CompletableFuture<R>>> together, LiveCounters counters) {
        this.locator = locator;
        this.alone = alone;
        this.together = together;
        this.counters = counters;
    }

    CompletableFuture<R> send(C call) {
        HRegionLocation location = knownLocation(call.getRow());
        if (location == null) {
            return sendAlone(call);
        }
        return lanes.computeIfAbsent(location.getServerName(), server -> new Lane()).send(call);
    }

    /** The location in the client's cache, or null: a lookup that has to ask hbase:meta is not waited for here. */
    private HRegionLocation knownLocation(byte[] row) {
        CompletableFuture<HRegionLocation> location = locator.getRegionLocation(row);
        return location.isDone() && !location.isCompletedExceptionally() ? location.join() : null;
    }

    private CompletableFuture<R> sendAlone(C call) {
        counters.increment(StoreCounter.CALLS_SENT_ALONE);
        return alone.apply(call);
    }

    /** A call waiting for the flight in the air, and the answer its request waits for. */
    private record Waiting<C, R>(C call, CompletableFuture<R> answer) {
    }

    /** The calls of one region server: at most one flight in the air, the calls that came meanwhile waiting. */
    private final class Lane {
        private final List<Waiting<C, R>> waiting = new ArrayList<>();
        private boolean inFlight;
        private long flightStartNanos;

        CompletableFuture<R> send(C call) {
            boolean opensFlight;
            synchronized (this) {
                if (inFlight && System.nanoTime() - flightStartNanos < STALLED_FLIGHT_NANOS) {
                    Waiting<C, R> queued = new Waiting<>(call, new CompletableFuture<>());
                    waiting.add(queued);
                    return queued.answer();
                }
                // Otherwise the lane is idle, or its flight stalled and this call does not wait for it.
                opensFlight = !inFlight;
                if (opensFlight) {
                    inFlight = true;
                    flightStartNanos = System.nanoTime();
                }
            }
            if (!opensFlight) {
                return sendAlone(call);
            }
            CompletableFuture<R> answer;
            try {
                answer = sendAlone(call);
            } catch (RuntimeException e) {
                // The client refused the call itself: the calls that queued meanwhile must not wait for it.
                nextFlight();
                throw e;
            }
            answer.whenComplete((result, failure) -> nextFlight());
            return answer;
        }

        private void nextFlight() {
            List<Waiting<C, R>> batch;
            synchronized (this) {
                if (waiting.isEmpty()) {
                    inFlight = false;
                    return;
                }
                List<Waiting<C, R>> first = waiting.subList(0, Math.min(waiting.size(), MAX_CALLS_PER_FLIGHT));
                batch = new ArrayList<>(first);
                first.clear();
                flightStartNanos = System.nanoTime();
            }
            fly(batch);
        }

        private void fly(List<Waiting<C, R>> batch) {
            List<CompletableFuture<R>> answers = send(batch);
            for (int i = 0; i < batch.size(); i++) {
                CompletableFuture<R> waiter = batch.get(i).answer();
                answers.get(i).whenComplete((result, failure) -> {
                    if (failure != null) {
                        waiter.completeExceptionally(failure);
                    } else {
                        waiter.complete(result);
                    }
                });
            }
            CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).whenComplete((done, failure) -> nextFlight());
        }

        private List<CompletableFuture<R>> send(List<Waiting<C, R>> batch) {
            if (batch.size() == 1) {
                return List.of(sendAlone(batch.get(0).call()));
            }
            counters.increment(StoreCounter.MULTI_ACTIONS);
            counters.add(StoreCounter.CALLS_IN_MULTI_ACTIONS, batch.size());
            try {
                return together.apply(batch.stream().map(Waiting::call).toList());
            } catch (RuntimeException e) {
                // The client refused the batch itself: every request in it gets the failure, and the lane goes on.
                return batch.stream().map(waiting -> CompletableFuture.<R>failedFuture(e)).toList();
            }
        }
    }
}
