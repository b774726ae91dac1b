package io.hbasesessions.testapp.hard;

/**
 * An enum whose constants have bodies: each constant is an instance of its own anonymous subclass
 * ({@code Mood$1}, ...), which serializers that look at {@code getClass().isEnum()} miss, and whose
 * identity hash (a {@code HashSet}'s layout) differs in every JVM.
 */
public enum Mood {
    HAPPY {
        @Override
        public String say() {
            return "yay";
        }
    },
    SAD {
        @Override
        public String say() {
            return "meh";
        }
    },
    CALM {
        @Override
        public String say() {
            return "ok";
        }
    };

    public abstract String say();
}
