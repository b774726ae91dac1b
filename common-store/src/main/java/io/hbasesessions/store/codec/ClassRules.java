package io.hbasesessions.store.codec;

import io.hbasesessions.store.ClassNames;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreSettings;
import java.io.Serializable;
import java.security.CodeSource;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Which classes the stored bytes of an attribute may make a decoder load and instantiate. Both codecs ask
 * for every class a value's bytes name, before anything of it is read; none of it depends on knowing which
 * classes are gadgets. A class is admitted only if
 * <ul>
 *   <li>it is one of the web application's own classes (defined by its class loader, which a container's
 *       server classes never are), one of the JDK's value and collection types (boxed primitives, strings,
 *       {@code java.math}, {@code java.time}, the {@code java.util} collections with their private wrappers),
 *       or a class or package the operator lists in {@code allowedAttributeClasses};</li>
 *   <li>it is not one of the classes this library ships, by name (its own packages and those of its
 *       dependencies: Kryo, Objenesis, HBase's client with the libraries it relocates under
 *       {@code org.apache.hbase.thirdparty}) or by the jar it comes from: so also where the application
 *       and this library share one class loader (Spring Boot, a WAR holding the Shiro DAO);</li>
 *   <li>an object of it is made only if it is {@code Serializable}, as Java serialization (and the Servlet
 *       specification, of a distributable session's attributes) requires: Kryo with Objenesis would rebuild
 *       anything;</li>
 *   <li>it is not on the built-in deny list of known gadget families (a second line), and, with an attribute
 *       class filter (Tomcat's {@code sessionAttributeValueClassNameFilter}, or {@code attributeClassFilter}),
 *       the attribute value's own class matches it and every class inside matches it or is a JDK value class.</li>
 * </ul>
 * Name rules are decided before the class is loaded; the rest once the class is loaded (never initialised),
 * once per class name and store. The same rules keep a value that could not be read back from being written.
 */
public final class ClassRules {

    /**
     * Gadget families, by package (ending in '.') or class (with its nested classes): what the public
     * deserialization exploit chains build on. None of them is a plausible session attribute.
     */
    private static final ClassNames DENIED = new ClassNames(List.of(
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
            "jdk.internal."));

    /**
     * What this library ships, by package: its own classes, and those of every jar it brings (in the Tomcat jar
     * and the Jetty module, with the HBase client's dependencies relocated under these names).
     */
    static final ClassNames PRODUCT_PACKAGES = new ClassNames(List.of("io.hbasesessions.api.",
            "io.hbasesessions.store.", "io.hbasesessions.shaded.", "io.hbasesessions.tomcat.", "io.hbasesessions.jetty.",
            "io.hbasesessions.shiro.", "io.hbasesessions.spring.", "io.hbasesessions.micrometer.",
            "io.hbasesessions.admin.", "com.esotericsoftware.", "org.objenesis.", "org.apache.hadoop.", "org.apache.hbase.",
            "org.apache.htrace.", "org.apache.yetus.", "io.opentelemetry.", "org.HdrHistogram.", "org.jspecify."));
    /** A class of each jar this library brings: whatever a class is named, one loaded from such a jar is the library's. */
    private static final List<String> PRODUCT_JAR_CLASSES = List.of("io.hbasesessions.store.codec.ClassRules",
            "io.hbasesessions.api.SessionRevoker", "com.esotericsoftware.kryo.Kryo", "com.esotericsoftware.minlog.Log",
            "com.esotericsoftware.reflectasm.AccessClassLoader", "org.objenesis.Objenesis", "org.apache.hadoop.hbase.Abortable",
            "org.apache.htrace.core.Tracer", "org.apache.yetus.audience.InterfaceAudience", "io.opentelemetry.api.OpenTelemetry",
            "io.opentelemetry.context.Context", "io.opentelemetry.semconv.SemanticAttributes", "org.HdrHistogram.Histogram");
    private static final Set<String> PRODUCT_JARS = codeSourcesOf(PRODUCT_JAR_CLASSES);

    /** JDK classes a session value may be or hold, besides those of {@link #JDK_VALUE_PACKAGES} and JDK interfaces. */
    private static final Set<String> JDK_VALUE_CLASSES = Set.of("java.lang.Boolean", "java.lang.Byte",
            "java.lang.Character", "java.lang.Short", "java.lang.Integer", "java.lang.Long", "java.lang.Float",
            "java.lang.Double", "java.lang.Number", "java.lang.String", "java.lang.String$CaseInsensitiveComparator",
            "java.lang.Enum", "java.lang.Object", "java.lang.Class", "java.lang.StringBuilder", "java.lang.StringBuffer",
            // An exception an application keeps (Spring Security's last login failure), as Java serialization writes it
            "java.lang.Throwable", "java.lang.Exception", "java.lang.RuntimeException", "java.lang.StackTraceElement",
            "java.lang.reflect.Proxy", "java.math.BigInteger", "java.math.BigDecimal", "java.math.MathContext",
            "java.math.RoundingMode", "java.net.URI", "java.sql.Date", "java.sql.Time", "java.sql.Timestamp",
            "sun.util.calendar.ZoneInfo");
    /** Packages (their classes, not sub-packages) of JDK value classes: collections, maps, dates and times. */
    private static final Set<String> JDK_VALUE_PACKAGES = Set.of("java.util", "java.util.concurrent",
            "java.util.concurrent.atomic", "java.util.concurrent.locks", "java.time", "java.time.chrono",
            "java.time.temporal", "java.time.zone");
    private static final Map<String, Class<?>> PRIMITIVES = Map.of("boolean", boolean.class, "byte", byte.class,
            "char", char.class, "short", short.class, "int", int.class, "long", long.class, "float", float.class,
            "double", double.class, "void", void.class);
    private static final String ALLOW_HINT = " (if the application's sessions do hold it, name it in "
            + "allowedAttributeClasses; see docs/security.md)";

    private final ClassLoader applicationLoader;
    private final Optional<Pattern> attributeClassFilter;
    private final ClassNames allowed;
    /** What the rules decided for each class name that names a class; names refused unloaded are not kept. */
    private final Map<String, Admission> admissions = new ConcurrentHashMap<>();

    /**
     * @param applicationLoader the loader that defines the web application's own classes, through which names
     *     are resolved
     * @param attributeClassFilter classes an attribute value may be of (empty: no filter)
     * @param allowed classes and packages admitted though not the application's own ({@code allowedAttributeClasses})
     */
    ClassRules(ClassLoader applicationLoader, Optional<Pattern> attributeClassFilter, ClassNames allowed) {
        this.applicationLoader = applicationLoader;
        this.attributeClassFilter = attributeClassFilter;
        this.allowed = allowed;
    }

    /** The rules of a store with no attribute class filter and no {@code allowedAttributeClasses}. */
    static ClassRules defaults(ClassLoader applicationLoader) {
        return new ClassRules(applicationLoader, Optional.empty(), new ClassNames(List.of()));
    }

    /** The rules of a store with {@code settings}, for the application whose classes {@code applicationLoader} defines. */
    public static ClassRules of(StoreSettings settings, ClassLoader applicationLoader) {
        return new ClassRules(applicationLoader, settings.find(Setting.ATTRIBUTE_CLASS_FILTER),
                settings.find(Setting.ALLOWED_ATTRIBUTE_CLASSES).orElse(new ClassNames(List.of())));
    }

    /**
     * The class a name read from stored bytes stands for, if the rules admit it as a class of the value's graph;
     * an object of it may still be refused ({@link #refusalToInstantiate}).
     *
     * @param attributeValue whether it names the class of the attribute value itself (the first class of its
     *     bytes), which the attribute class filter must match
     * @throws DecodingRefusedException naming the class and the rule, before the class is loaded where the name decides
     * @throws ClassNotFoundException if the application has no such class (gone after a redeploy)
     */
    Class<?> admit(String name, boolean attributeValue) throws ClassNotFoundException {
        Admission admission = admission(name);
        String refusal = admission.refusal() != null ? admission.refusal()
                : attributeValue ? admission.refusalAsValue() : null;
        if (refusal != null) {
            throw new DecodingRefusedException("class " + name + " " + refusal);
        }
        return admission.type();
    }

    /**
     * Why an object of {@code type} may not be rebuilt from stored bytes, nor written where it would have to be:
     * the rules refuse its class, or it is not {@code Serializable}. Null when it may.
     */
    public String refusalToInstantiate(Class<?> type) {
        Admission admission;
        try {
            admission = admission(type.getName());
        } catch (DecodingRefusedException e) {
            return e.getMessage();
        } catch (ClassNotFoundException e) {
            return "class " + type.getName() + " is not visible to the web application's class loader";
        }
        if (admission.type() != type) {
            admission = decide(type);
        }
        String refusal = admission.refusal() != null ? admission.refusal() : admission.refusalToInstantiate();
        return refusal == null ? null : "class " + type.getName() + " " + refusal;
    }

    /** Whether a value of {@code type} may be stored: the filter, when there is one, must match its class. */
    public boolean allowsValueOf(Class<?> type) {
        return attributeClassFilter.map(filter -> filter.matcher(type.getName()).matches()).orElse(true);
    }

    ClassLoader applicationLoader() {
        return applicationLoader;
    }

    /** Defined by the JDK's own loaders: its fields cannot be reached, and its methods run no application code. */
    static boolean isJdkClass(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        return loader == null || loader == ClassLoader.getPlatformClassLoader();
    }

    /**
     * What the rules say of {@code name}. Refusals the name decides are thrown before anything is loaded and not
     * kept (hostile bytes may name any number of classes); a class that loads is decided once.
     */
    private Admission admission(String name) throws ClassNotFoundException {
        Admission known = admissions.get(name);
        if (known != null) {
            return known;
        }
        String element = elementClassName(name);
        if (!element.isEmpty() && !PRIMITIVES.containsKey(element)) {
            refuseByName(name, element);
        }
        Admission decided = decide(load(name, element));
        admissions.put(name, decided);
        return decided;
    }

    private void refuseByName(String name, String element) {
        if (DENIED.contains(element)) {
            throw new DecodingRefusedException("class " + name + " is on the built-in deny list of deserialization "
                    + "gadgets");
        }
        if (PRODUCT_PACKAGES.contains(element)) {
            throw new DecodingRefusedException("class " + name + " is one of the classes hbase-sessions ships (its own "
                    + "or a library it brings): never a session value");
        }
        if (attributeClassFilter.isPresent() && !attributeClassFilter.get().matcher(element).matches()
                && !isJdkValueClass(element)) {
            throw new DecodingRefusedException("class " + name + " does not match the attribute class filter "
                    + attributeClassFilter.get().pattern());
        }
    }

    /** The rules that need the class: where it comes from, whether it is Serializable, the filter for the value itself. */
    private Admission decide(Class<?> type) {
        Class<?> element = type;
        while (element.isArray()) {
            element = element.getComponentType();
        }
        String refusalAsValue = attributeClassFilter.filter(filter -> !filter.matcher(type.getName()).matches())
                .map(filter -> "does not match the attribute class filter " + filter.pattern()
                        + " (the class of an attribute value)").orElse(null);
        boolean instantiable = type.isArray() || type.isPrimitive() || Serializable.class.isAssignableFrom(type);
        return new Admission(type, element.isPrimitive() ? null : refusalByOrigin(element), refusalAsValue,
                instantiable ? null : "is not Serializable: Java serialization would not rebuild it, and neither does "
                        + "this store (a distributable session's attributes must be Serializable)");
    }

    private String refusalByOrigin(Class<?> type) {
        String name = type.getName();
        if (allowed.contains(name)) {
            return null;
        }
        if (isJdkClass(type)) {
            return type.isInterface() || isJdkValueClass(name) ? null
                    : "is a JDK class that is not one of the value and collection types session values are made of"
                            + ALLOW_HINT;
        }
        if (type.getClassLoader() != applicationLoader) {
            return "is not one of the web application's own classes: " + type.getClassLoader() + " loaded it, not the "
                    + "application's class loader" + ALLOW_HINT;
        }
        String jar = codeSourceOf(type);
        if (jar != null && PRODUCT_JARS.contains(jar)) {
            return "comes from " + jar + ", a jar hbase-sessions ships: never a session value";
        }
        return null;
    }

    /**
     * The class {@code name} stands for, as the web application resolves it; from the server's class path (this
     * library's loader) only for a class {@code allowedAttributeClasses} names.
     */
    private Class<?> load(String name, String element) throws ClassNotFoundException {
        Class<?> primitive = PRIMITIVES.get(name);
        if (primitive != null) {
            return primitive;
        }
        try {
            return Class.forName(name, false, applicationLoader);
        } catch (ClassNotFoundException notInTheApplication) {
            ClassLoader server = ClassRules.class.getClassLoader();
            if (server == applicationLoader || element.isEmpty() || !allowed.contains(element)) {
                throw notInTheApplication;
            }
            return Class.forName(name, false, server);
        }
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

    private static boolean isJdkValueClass(String name) {
        int lastDot = name.lastIndexOf('.');
        return JDK_VALUE_CLASSES.contains(name) || lastDot > 0 && JDK_VALUE_PACKAGES.contains(name.substring(0, lastDot));
    }

    private static String codeSourceOf(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        return source == null || source.getLocation() == null ? null : source.getLocation().toExternalForm();
    }

    private static Set<String> codeSourcesOf(List<String> classNames) {
        Set<String> jars = new HashSet<>();
        for (String name : classNames) {
            try {
                String jar = codeSourceOf(Class.forName(name, false, ClassRules.class.getClassLoader()));
                if (jar != null) {
                    jars.add(jar);
                }
            } catch (ClassNotFoundException | LinkageError e) {
                // Not shipped in this packaging (the drop-ins carry some of these libraries relocated, or not at all).
            }
        }
        return Set.copyOf(jars);
    }

    /**
     * What the rules decided for one loaded class.
     *
     * @param refusal why the class may not be in a value at all (null: it may)
     * @param refusalAsValue why it may not be the attribute value's own class (the filter), or null
     * @param refusalToInstantiate why no object of it may be rebuilt (not Serializable), or null
     */
    private record Admission(Class<?> type, String refusal, String refusalAsValue, String refusalToInstantiate) {
    }
}
