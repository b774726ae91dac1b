package io.hbasesessions.testapp.hard;

import io.hbasesessions.testapp.Note;
import jakarta.servlet.http.HttpSession;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The hard attributes, each under its own name: what {@link #put} stores, what {@link #mutate} changes
 * in place (never through {@code setAttribute}), and what {@link #check} demands of a session after
 * {@code rounds} mutations, on whichever node reads it. {@link #check} reports {@code ok} or the broken
 * invariant per attribute, and each attribute's state, so that a test can compare both.
 */
public final class HardAttributes {

    /** The attribute names, in the order they are put. */
    public static final List<String> NAMES = List.of("views", "greeter", "greeters", "selfGreeter", "grownMap", "moods",
            "moodSet", "moodCounts", "address", "pair", "ledger", "cycle", "listOf", "mapOf", "asList", "plainAsList",
            "recentlyViewed");

    /** Entries {@code grownMap} held at its largest; all but a few are removed again. */
    static final int GROWN_MAP_PEAK = 2_000;

    private HardAttributes() {
    }

    public static void put(HttpSession session, ClassLoader webappLoader) {
        session.setAttribute("views", new SharedViews("v0"));
        session.setAttribute("greeter", GreeterHandler.newGreeter("one", webappLoader));
        Greeter shared = GreeterHandler.newGreeter("two", webappLoader);
        session.setAttribute("greeters", new Pair(shared, shared));
        session.setAttribute("selfGreeter", GreeterHandler.newSelfReferencingGreeter("three", webappLoader));
        session.setAttribute("grownMap", grownAndShrunk());
        session.setAttribute("moods", new HashSet<>(Set.of(Mood.HAPPY, Mood.SAD)));
        session.setAttribute("moodSet", EnumSet.of(Mood.HAPPY, Mood.CALM));
        EnumMap<Mood, Integer> counts = new EnumMap<>(Mood.class);
        counts.put(Mood.HAPPY, 1);
        session.setAttribute("moodCounts", counts);
        session.setAttribute("address", new Address("Main Street", 1, List.of("flat 2")));
        Note note = new Note("shared");
        session.setAttribute("pair", new Pair(note, note));
        Ledger ledger = new Ledger();
        ledger.record("l0");
        session.setAttribute("ledger", ledger);
        session.setAttribute("cycle", Link.cycle("a", "b"));
        session.setAttribute("listOf", List.of("x", "y", "z"));
        session.setAttribute("mapOf", Map.of("k1", "v1", "k2", "v2"));
        session.setAttribute("asList", new ArrayBacked("p", "q"));
        session.setAttribute("plainAsList", Arrays.asList("r", "s"));
        session.setAttribute("recentlyViewed", RecentlyViewed.initial());
    }

    /** A {@code HashMap} whose table grew to thousands of buckets and holds five entries now. */
    private static HashMap<String, String> grownAndShrunk() {
        HashMap<String, String> map = new HashMap<>();
        for (int i = 0; i < GROWN_MAP_PEAK; i++) {
            map.put("k" + i, "v" + i);
        }
        for (int i = 4; i < GROWN_MAP_PEAK; i++) {
            map.remove("k" + i);
        }
        map.put("theme", "1");
        return map;
    }

    /** Mutation number {@code round} (1, 2, ...) of every mutable attribute, in place. */
    @SuppressWarnings("unchecked")
    public static void mutate(HttpSession session, int round) {
        ((SharedViews) session.getAttribute("views")).add("m" + round);
        ((Greeter) session.getAttribute("greeter")).greet();
        ((Greeter) ((Pair) session.getAttribute("greeters")).left()).greet();
        ((Map<String, String>) session.getAttribute("grownMap")).put("round", Integer.toString(round));
        ((Set<Mood>) session.getAttribute("moods")).add(Mood.CALM);
        ((Map<Mood, Integer>) session.getAttribute("moodCounts")).merge(Mood.SAD, 1, Integer::sum);
        ((Ledger) session.getAttribute("ledger")).record("m" + round);
        ((Link) session.getAttribute("cycle")).next().rename("b" + round);
        ((ArrayBacked) session.getAttribute("asList")).set(1, "m" + round);
        ((Greeter) session.getAttribute("selfGreeter")).greet();
        ((RecentlyViewed) session.getAttribute("recentlyViewed")).view("m" + round);
    }

    /** Reads every attribute and changes nothing. */
    public static int read(HttpSession session) {
        int found = 0;
        for (String name : NAMES) {
            if (session.getAttribute(name) != null) {
                found++;
            }
        }
        return found;
    }

    /** {@code check.<name>} = {@code ok} or what is broken, and {@code state.<name>}, for every attribute. */
    public static Map<String, String> check(HttpSession session, int rounds) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String name : NAMES) {
            Object value = session.getAttribute(name);
            List<String> problems = new ArrayList<>();
            String state;
            if (value == null) {
                problems.add("missing");
                state = "missing";
            } else {
                try {
                    state = CHECKS.get(name).apply(new Checked(value, rounds, problems));
                } catch (RuntimeException e) {
                    problems.add("the check threw " + e);
                    state = "?";
                }
            }
            out.put("check." + name, problems.isEmpty() ? "ok" : String.join("; ", problems));
            out.put("state." + name, state);
        }
        return out;
    }

    /** One attribute under check: its value, the rounds of mutation it has seen, and what is wrong with it. */
    private record Checked(Object value, int rounds, List<String> problems) {
        void expect(boolean condition, String problem) {
            if (!condition) {
                problems.add(problem);
            }
        }

        <T> T as(Class<T> type) {
            return type.cast(value);
        }
    }

    private static final Map<String, Function<Checked, String>> CHECKS = Map.ofEntries(
            Map.entry("views", HardAttributes::checkViews),
            Map.entry("greeter", c -> checkGreeter(c, c.as(Greeter.class))),
            Map.entry("greeters", HardAttributes::checkSharedGreeters),
            Map.entry("selfGreeter", HardAttributes::checkSelfGreeter),
            Map.entry("recentlyViewed", HardAttributes::checkRecentlyViewed),
            Map.entry("grownMap", HardAttributes::checkGrownMap),
            Map.entry("moods", HardAttributes::checkMoods),
            Map.entry("moodSet", HardAttributes::checkMoodSet),
            Map.entry("moodCounts", HardAttributes::checkMoodCounts),
            Map.entry("address", HardAttributes::checkAddress),
            Map.entry("pair", HardAttributes::checkPair),
            Map.entry("ledger", HardAttributes::checkLedger),
            Map.entry("cycle", HardAttributes::checkCycle),
            Map.entry("listOf", c -> checkImmutable(c, List.of("x", "y", "z"), "java.util.ImmutableCollections$")),
            Map.entry("mapOf", c -> checkImmutable(c, Map.of("k1", "v1", "k2", "v2"), "java.util.ImmutableCollections$")),
            Map.entry("asList", HardAttributes::checkArrayBacked),
            Map.entry("plainAsList", HardAttributes::checkPlainAsList));

    private static String checkViews(Checked c) {
        SharedViews views = c.as(SharedViews.class);
        c.problems().addAll(views.problems());
        List<String> expected = new ArrayList<>(List.of("v0"));
        for (int i = 1; i <= c.rounds(); i++) {
            expected.add("m" + i);
        }
        c.expect(views.items().equals(expected), "items " + views.items() + ", expected " + expected);
        return views.items().toString();
    }

    private static String checkGreeter(Checked c, Greeter greeter) {
        c.expect(Proxy.isProxyClass(greeter.getClass()), "not a dynamic proxy: " + greeter.getClass().getName());
        c.expect(greeter.calls() == c.rounds(), "calls " + greeter.calls() + ", expected " + c.rounds());
        return "calls=" + greeter.calls();
    }

    private static String checkSharedGreeters(Checked c) {
        Pair pair = c.as(Pair.class);
        c.expect(pair.sharesOneObject(), "the two greeters are two objects");
        return checkGreeter(c, (Greeter) pair.right());
    }

    private static String checkSelfGreeter(Checked c) {
        Greeter greeter = c.as(Greeter.class);
        c.expect(greeter.self() == greeter, "the handler's proxy is " + (greeter.self() == null ? "null" : "another "
                + "object") + ", not the proxy itself");
        return checkGreeter(c, greeter);
    }

    private static String checkRecentlyViewed(Checked c) {
        RecentlyViewed recent = c.as(RecentlyViewed.class);
        RecentlyViewed expected = RecentlyViewed.after(c.rounds());
        c.expect(recent.max() == 3, "the bound is " + recent.max());
        c.expect(List.copyOf(recent.keySet()).equals(List.copyOf(expected.keySet())), "order " + recent.keySet()
                + ", expected " + expected.keySet());
        // On a copy, so the check changes nothing: a read must move the entry to the end (access order).
        RecentlyViewed copy = (RecentlyViewed) recent.clone();
        String eldest = copy.keySet().stream().findFirst().orElse(null);
        if (eldest != null) {
            copy.get(eldest);
            c.expect(eldest.equals(List.copyOf(copy.keySet()).get(copy.size() - 1)), "a read does not move " + eldest
                    + " to the end: the access order is lost");
        }
        return recent.keySet().toString();
    }

    @SuppressWarnings("unchecked")
    private static String checkGrownMap(Checked c) {
        Map<String, String> map = (Map<String, String>) c.value();
        c.expect(map.getClass() == HashMap.class, "a " + map.getClass().getName());
        c.expect(Objects.equals(map.get("k0"), "v0") && Objects.equals(map.get("k3"), "v3"), "k0..k3 lost: " + map);
        c.expect(!map.containsKey("k4"), "removed keys came back");
        if (c.rounds() > 0) {
            c.expect(Integer.toString(c.rounds()).equals(map.get("round")), "round " + map.get("round"));
        }
        return "theme=" + map.get("theme") + ",size=" + map.size();
    }

    @SuppressWarnings("unchecked")
    private static String checkMoods(Checked c) {
        Set<Mood> moods = (Set<Mood>) c.value();
        c.expect(moods.getClass() == HashSet.class, "a " + moods.getClass().getName());
        c.expect(moods.contains(Mood.HAPPY) && moods.contains(Mood.SAD), "constants are not this JVM's: " + moods);
        c.expect(moods.contains(Mood.CALM) == c.rounds() > 0, "CALM " + (c.rounds() > 0 ? "missing" : "present"));
        for (Mood mood : moods) {
            c.expect(mood.getClass() != Mood.class && mood.getClass().getSuperclass() == Mood.class,
                    mood + " lost its body class");
            c.expect(mood == Mood.valueOf(mood.name()), mood + " is a second instance of the constant");
        }
        return moods.size() + ":" + Mood.HAPPY.say();
    }

    @SuppressWarnings("unchecked")
    private static String checkMoodSet(Checked c) {
        Set<Mood> set = (Set<Mood>) c.value();
        c.expect(set instanceof EnumSet<?>, "not an EnumSet: " + set.getClass().getName());
        c.expect(set.equals(EnumSet.of(Mood.HAPPY, Mood.CALM)), "contents " + set);
        c.expect(EnumSet.complementOf((EnumSet<Mood>) set).equals(EnumSet.of(Mood.SAD)), "the enum type is lost");
        return set.toString();
    }

    @SuppressWarnings("unchecked")
    private static String checkMoodCounts(Checked c) {
        Map<Mood, Integer> counts = (Map<Mood, Integer>) c.value();
        c.expect(counts.getClass() == EnumMap.class, "a " + counts.getClass().getName());
        c.expect(Integer.valueOf(1).equals(counts.get(Mood.HAPPY)), "HAPPY=" + counts.get(Mood.HAPPY));
        c.expect(Objects.equals(c.rounds() == 0 ? null : c.rounds(), counts.get(Mood.SAD)), "SAD=" + counts.get(Mood.SAD));
        try {
            // An EnumMap that lost its key type refuses the constants of its own enum.
            counts.put(Mood.CALM, 0);
            counts.remove(Mood.CALM);
        } catch (ClassCastException e) {
            c.problems().add("the key type is lost: " + e.getMessage());
        }
        return counts.toString();
    }

    private static String checkAddress(Checked c) {
        Address address = c.as(Address.class);
        c.expect(address.equals(new Address("Main Street", 1, List.of("flat 2"))), "components " + address);
        return address.toString();
    }

    private static String checkPair(Checked c) {
        Pair pair = c.as(Pair.class);
        c.expect(pair.sharesOneObject(), "the two components are two objects");
        return pair.left().toString();
    }

    private static String checkLedger(Checked c) {
        Ledger ledger = c.as(Ledger.class);
        c.problems().addAll(ledger.problems());
        List<String> expected = new ArrayList<>(List.of("l0"));
        for (int i = 1; i <= c.rounds(); i++) {
            expected.add("m" + i);
        }
        c.expect(ledger.entries().equals(expected), "entries " + ledger.entries());
        return ledger.entries().toString();
    }

    private static String checkCycle(Checked c) {
        Link a = c.as(Link.class);
        Link b = a.next();
        c.expect(b != null && b.next() == a, "the cycle is broken");
        c.expect(a.revived() && b != null && b.revived(), "readObject did not run on every link");
        String expectedName = c.rounds() == 0 ? "b" : "b" + c.rounds();
        c.expect(b != null && expectedName.equals(b.name()), "b is named " + (b == null ? null : b.name()));
        return a.name() + "->" + (b == null ? null : b.name());
    }

    @SuppressWarnings("unchecked")
    private static String checkImmutable(Checked c, Object expected, String classPrefix) {
        c.expect(c.value().equals(expected), "contents " + c.value());
        c.expect(c.value().getClass().getName().startsWith(classPrefix), "a " + c.value().getClass().getName());
        try {
            if (c.value() instanceof List<?> list) {
                ((List<Object>) list).add("x");
            } else {
                ((Map<Object, Object>) c.value()).put("x", "y");
            }
            c.problems().add("accepts changes");
        } catch (UnsupportedOperationException expectedFailure) {
            // As it should.
        }
        return c.value().toString();
    }

    private static String checkArrayBacked(Checked c) {
        ArrayBacked backed = c.as(ArrayBacked.class);
        String problem = backed.problem();
        c.expect(problem.isEmpty(), problem);
        String expected = "[p, " + (c.rounds() == 0 ? "q" : "m" + c.rounds()) + "]";
        c.expect(backed.toString().equals(expected), "array " + backed + ", expected " + expected);
        return backed.toString();
    }

    @SuppressWarnings("unchecked")
    private static String checkPlainAsList(Checked c) {
        List<String> list = (List<String>) c.value();
        c.expect(list.getClass().getName().equals("java.util.Arrays$ArrayList"), "a " + list.getClass().getName());
        c.expect(list.equals(List.of("r", "s")), "contents " + list);
        return list.toString();
    }
}
