package io.hbasesessions.store;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which classes the stored bytes of an attribute may name, decided from the name alone, before any
 * class is loaded; both codecs ask before they resolve a class, for every class of the value's graph.
 * <ul>
 *   <li>The built-in deny list (known deserialization gadget families) applies always.</li>
 *   <li>With an attribute class filter (Tomcat's {@code sessionAttributeValueClassNameFilter}, or
 *       {@code attributeClassFilter}, a regular expression the whole class name must match), the
 *       attribute value's own class must match it, as Tomcat requires of what it distributes; a class
 *       inside the value must match it or be one of the JDK's value classes (boxed primitives,
 *       {@code String}, {@code java.math}, {@code java.time}, the {@code java.util} collections and
 *       maps with their private wrappers), which allowed values are built of.</li>
 *   <li>Classes are resolved as the web application resolves them, through its class loader; the
 *       server's class path (where this library lives) is reached only for a class the filter names.</li>
 * </ul>
 */
final class ClassRules {

    /**
     * Gadget families, by package (ending in '.') or class (with its nested classes): what the public
     * deserialization exploit chains build on. None of them is a plausible session attribute.
     */
    private static final List<String> DENIED = List.of(
            // Apache Commons Collections and BeanUtils: transformer and comparator chains
            "org.apache.commons.collections.functors.", "org.apache.commons.collections4.functors.",
            "org.apache.commons.collections.comparators.TransformingComparator",
            "org.apache.commons.collections4.comparators.TransformingComparator",
            "org.apache.commons.collections.keyvalue.TiedMapEntry", "org.apache.commons.collections4.keyvalue.TiedMapEntry",
            "org.apache.commons.collections.map.LazyMap", "org.apache.commons.collections4.map.LazyMap",
            "org.apache.commons.beanutils.BeanComparator", "org.apache.commons.beanutils2.BeanComparator",
            // Files written or deleted when read back
            "org.apache.commons.fileupload.disk.DiskFileItem", "org.apache.tomcat.util.http.fileupload.disk.DiskFileItem",
            "org.apache.wicket.util.upload.DiskFileItem",
            // Spring: method invocation through type providers and object factories, JNDI lookups
            "org.springframework.core.SerializableTypeWrapper", "org.springframework.beans.factory.ObjectFactory",
            "org.springframework.beans.factory.support.AutowireUtils", "org.springframework.aop.framework.AdvisedSupport",
            "org.springframework.aop.framework.JdkDynamicAopProxy", "org.springframework.aop.target.SingletonTargetSource",
            "org.springframework.transaction.jta.JtaTransactionManager",
            // Scripting languages: Groovy, Rhino, BeanShell, Jython, Clojure, javax.script, Nashorn
            "org.codehaus.groovy.runtime.", "org.mozilla.javascript.", "net.sourceforge.htmlunit.corejs.javascript.",
            "bsh.", "org.python.", "clojure.", "javax.script.", "jdk.nashorn.", "org.openjdk.nashorn.",
            // Naming and data sources: JNDI references, C3P0, XBean, row sets
            "javax.naming.", "com.sun.jndi.", "org.apache.naming.", "com.mchange.v2.c3p0.", "org.apache.xbean.naming.",
            "com.sun.rowset.", "javax.sql.rowset.",
            // Classes defined from stored bytes: XSLT TemplatesImpl, BCEL
            "com.sun.org.apache.", "org.apache.xalan.", "org.apache.bcel.",
            // Getter and toString chains: ROME, Jackson, JSON-lib, Hibernate, Vaadin, AspectJ, Click, MyFaces, Weld
            "com.sun.syndication.", "com.rometools.rome.feed.impl.", "com.fasterxml.jackson.databind.node.POJONode",
            "net.sf.json.", "org.hibernate.engine.spi.TypedValue", "org.hibernate.tuple.",
            "com.vaadin.data.util.NestedMethodProperty", "com.vaadin.data.util.PropertysetItem", "org.aspectj.weaver.",
            "org.apache.click.control.Column", "org.apache.myfaces.view.facelets.el.ValueExpressionMethodExpression",
            "org.jboss.interceptor.", "org.jboss.weld.interceptor.",
            // RMI and JMX: remote references, nested deserialization, BadAttributeValueExpException's toString
            "java.rmi.", "javax.rmi.", "sun.rmi.", "javax.management.", "com.sun.jmx.", "java.security.SignedObject",
            // The JDK's own: processes, threads, class loaders, invocation handlers, URL (a DNS lookup in hashCode)
            "java.lang.Runtime", "java.lang.ProcessBuilder", "java.lang.ProcessImpl", "java.lang.Thread",
            "java.lang.ClassLoader", "java.lang.System", "java.net.URL", "java.net.URLClassLoader",
            "java.beans.EventHandler", "javax.swing.", "sun.reflect.", "sun.misc.", "sun.swing.", "sun.print.",
            "jdk.internal.");

    /** JDK classes every collection-valued attribute needs, allowed inside a value whatever the filter says. */
    private static final Set<String> JDK_VALUE_CLASSES = Set.of("java.lang.Boolean", "java.lang.Byte",
            "java.lang.Character", "java.lang.Short", "java.lang.Integer", "java.lang.Long", "java.lang.Float",
            "java.lang.Double", "java.lang.Number", "java.lang.String", "java.lang.Enum", "java.lang.Object",
            "java.lang.StringBuilder", "java.lang.StringBuffer", "java.math.BigInteger", "java.math.BigDecimal",
            "java.math.MathContext", "java.math.RoundingMode", "sun.util.calendar.ZoneInfo");
    /** Packages (their classes, not sub-packages) of JDK value classes: collections, maps, dates and times. */
    private static final Set<String> JDK_VALUE_PACKAGES = Set.of("java.util", "java.util.concurrent",
            "java.util.concurrent.atomic", "java.time", "java.time.chrono", "java.time.temporal", "java.time.zone");
    private static final Map<String, Class<?>> PRIMITIVES = Map.of("boolean", boolean.class, "byte", byte.class,
            "char", char.class, "short", short.class, "int", int.class, "long", long.class, "float", float.class,
            "double", double.class, "void", void.class);

    private final ClassLoader webappLoader;
    private final Optional<Pattern> attributeClassFilter;

    /**
     * @param attributeClassFilter classes an attribute value may be of (empty: any class the deny list
     *     leaves, from the web application's class loader)
     */
    ClassRules(ClassLoader webappLoader, Optional<Pattern> attributeClassFilter) {
        this.webappLoader = webappLoader;
        this.attributeClassFilter = attributeClassFilter;
    }

    /** The built-in deny list only: what a store without a configured filter applies. */
    static ClassRules denyListOnly(ClassLoader webappLoader) {
        return new ClassRules(webappLoader, Optional.empty());
    }

    /**
     * Refuses a class name the rules do not allow; decided before the class is loaded.
     *
     * @param attributeValue whether it names the class of the attribute value itself (the first class of
     *     its bytes), which the filter must match; a class inside the value may also be a JDK value class
     * @throws DecodingRefusedException naming the class and the rule
     */
    void check(String name, boolean attributeValue) {
        String element = elementClassName(name);
        if (element.isEmpty()) {
            return;
        }
        if (isDenied(element)) {
            throw new DecodingRefusedException("class " + name + " is on the built-in deny list of deserialization "
                    + "gadgets");
        }
        if (attributeClassFilter.isEmpty()) {
            return;
        }
        Pattern filter = attributeClassFilter.get();
        boolean allowed = attributeValue ? filter.matcher(name).matches()
                : filter.matcher(element).matches() || isJdkValueClass(element);
        if (!allowed) {
            throw new DecodingRefusedException("class " + name + " does not match the attribute class filter "
                    + filter.pattern() + (attributeValue ? " (the class of an attribute value)" : ""));
        }
    }

    /**
     * The class a {@link #check checked} name stands for, as the web application resolves it; from the
     * server's class path (this library's loader) only if the filter names it.
     */
    Class<?> load(String name) throws ClassNotFoundException {
        Class<?> primitive = PRIMITIVES.get(name);
        if (primitive != null) {
            return primitive;
        }
        try {
            return Class.forName(name, false, webappLoader);
        } catch (ClassNotFoundException notInTheWebapp) {
            ClassLoader server = ClassRules.class.getClassLoader();
            if (server == webappLoader || attributeClassFilter.filter(f -> f.matcher(name).matches()).isEmpty()) {
                throw notInTheWebapp;
            }
            return Class.forName(name, false, server);
        }
    }

    /** Whether a value of {@code type} may be stored: the filter, when there is one, must match its class. */
    boolean allowsValueOf(Class<?> type) {
        return attributeClassFilter.map(filter -> filter.matcher(type.getName()).matches()).orElse(true);
    }

    ClassLoader webappLoader() {
        return webappLoader;
    }

    /** The class an array name is of ({@code [[Lx.Y;} is {@code x.Y}); empty for arrays of primitives. */
    private static String elementClassName(String name) {
        int dimensions = 0;
        while (dimensions < name.length() && name.charAt(dimensions) == '[') {
            dimensions++;
        }
        if (dimensions == 0) {
            return name;
        }
        boolean ofObjects = dimensions < name.length() && name.charAt(dimensions) == 'L' && name.endsWith(";");
        return ofObjects ? name.substring(dimensions + 1, name.length() - 1) : "";
    }

    private static boolean isDenied(String name) {
        for (String entry : DENIED) {
            boolean matches = entry.endsWith(".") ? name.startsWith(entry)
                    : name.equals(entry) || name.startsWith(entry) && name.charAt(entry.length()) == '$';
            if (matches) {
                return true;
            }
        }
        return false;
    }

    private static boolean isJdkValueClass(String name) {
        int lastDot = name.lastIndexOf('.');
        return JDK_VALUE_CLASSES.contains(name) || lastDot > 0 && JDK_VALUE_PACKAGES.contains(name.substring(0, lastDot));
    }
}
