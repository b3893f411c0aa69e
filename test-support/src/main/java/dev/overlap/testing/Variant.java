package dev.overlap.testing;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * One primitive variant of a library class ({@code IntCounterRing}, its generated twin {@code LongCounterRing}, ...),
 * driven by a test written once for all variants, the way JCTools' {@code QueueSanityTest} drives every queue
 * through {@code Queue<Integer>}. Items travel through the test as {@code long}s and are converted to the variant's
 * element type at each call ({@code int}, {@code long} or {@code double}: a narrowing or numeric conversion, so a
 * test gives each variant values that its element type holds exactly); element arrays are copied in before the call
 * and back after it, so an array a method fills is seen by the test.
 *
 * <p>Methods are looked up by the signature the variant must have, with {@link Element} and {@link Elements}
 * standing for its element type and element array: a twin whose public API drifted from its template's fails at
 * the lookup, before any behaviour is tested. Reflection adds no behaviour of its own: exceptions the method throws
 * reach the test unchanged. Thread-safe: an {@link Op} may be called from many threads at once.
 */
public final class Variant {
    private final Class<?> type;
    private final Class<?> element;

    private Variant(final Class<?> type, final Class<?> element) {
        if (element != int.class && element != long.class && element != double.class) {
            throw new IllegalArgumentException("element type must be int, long or double, was " + element);
        }
        this.type = type;
        this.element = element;
    }

    /** @return the variant {@code type} whose element type is {@code element} */
    public static Variant of(final Class<?> type, final Class<?> element) {
        return new Variant(type, element);
    }

    /** Stands for the variant's element type in a signature. */
    public static final class Element {
        private Element() {
        }
    }

    /** Stands for an array of the variant's element type in a signature. */
    public static final class Elements {
        private Elements() {
        }
    }

    /** @return the class */
    public Class<?> type() {
        return type;
    }

    /** @return its element type */
    public Class<?> element() {
        return element;
    }

    /** @return the class's simple name */
    @Override
    public String toString() {
        return type.getSimpleName();
    }

    /** @return the public instance method {@code name(params)} (the receiver comes first in {@link Op#call}) */
    public Op method(final String name, final Class<?>... params) {
        return new Op(find(name, params), false);
    }

    /** @return the public static method {@code name(params)} */
    public Op staticMethod(final String name, final Class<?>... params) {
        final Method m = find(name, params);
        if (!Modifier.isStatic(m.getModifiers())) {
            throw new AssertionError(m + " is not static");
        }
        return new Op(m, true);
    }

    /** @return the public constructor taking {@code params} */
    public Op constructor(final Class<?>... params) {
        try {
            return new Op(type.getConstructor(resolve(params)), true);
        } catch (final NoSuchMethodException e) {
            throw new AssertionError(type.getSimpleName() + " has no public constructor " + e.getMessage(), e);
        }
    }

    /** @return {@code value} as the element type holds it, widened back to a {@code long} */
    public long stored(final long value) {
        return toLong(toElement(value));
    }

    private Method find(final String name, final Class<?>... params) {
        try {
            return type.getMethod(name, resolve(params));
        } catch (final NoSuchMethodException e) {
            throw new AssertionError(type.getSimpleName() + " has no public method " + e.getMessage(), e);
        }
    }

    private Class<?>[] resolve(final Class<?>... params) {
        final Class<?>[] out = new Class<?>[params.length];
        for (int i = 0; i < params.length; i++) {
            out[i] = params[i] == Element.class ? element
                : params[i] == Elements.class ? element.arrayType() : params[i];
        }
        return out;
    }

    private Object toElement(final long value) {
        if (element == int.class) {
            return (int)value;
        }
        return element == long.class ? (Object)value : (Object)(double)value;
    }

    private long toLong(final Object value) {
        return value instanceof Double ? (long)(double)(Double)value : ((Number)value).longValue();
    }

    /** A method or constructor of the variant, called with {@code long}s and {@code long[]}s for its elements. */
    public final class Op {
        private final Executable target;
        private final boolean noReceiver;

        Op(final Executable target, final boolean noReceiver) {
            this.target = target;
            this.noReceiver = noReceiver;
        }

        /**
         * Calls it: a {@code long} (or any {@link Number}) where the signature has {@link Element}, a {@code long[]}
         * where it has {@link Elements} (copied into an element array and back after the call).
         *
         * @return the result; a result of the element type comes back as a {@code Long} (so an {@code int} result of
         *         an {@code int} variant too: read counts with {@link #callInt})
         */
        public Object call(final Object... args) {
            final int skip = noReceiver ? 0 : 1;
            final Object receiver = noReceiver ? null : args[0];
            final Class<?>[] params = target.getParameterTypes();
            if (args.length - skip != params.length) {
                throw new IllegalArgumentException(target + " takes " + params.length + " arguments");
            }
            final Object[] converted = new Object[params.length];
            for (int i = 0; i < params.length; i++) {
                final Object arg = args[i + skip];
                if (params[i] == element) {
                    converted[i] = toElement(((Number)arg).longValue());
                } else if (params[i] == element.arrayType() && arg instanceof long[]) {
                    final long[] values = (long[])arg;
                    final Object array = Array.newInstance(element, values.length);
                    for (int j = 0; j < values.length; j++) {
                        Array.set(array, j, toElement(values[j]));
                    }
                    converted[i] = array;
                } else {
                    converted[i] = arg;
                }
            }
            final Object result = invoke(receiver, converted);
            for (int i = 0; i < params.length; i++) {
                final Object arg = args[i + skip];
                if (params[i] == element.arrayType() && arg instanceof long[]) {
                    final long[] values = (long[])arg;
                    for (int j = 0; j < values.length; j++) {
                        values[j] = toLong(Array.get(converted[i], j));
                    }
                }
            }
            if (target instanceof Method && ((Method)target).getReturnType() == element) {
                return toLong(result);
            }
            return result;
        }

        /** @return {@link #call} of a method that returns an element (or a {@code long}) */
        public long callLong(final Object... args) {
            return ((Number)call(args)).longValue();
        }

        /** @return {@link #call} of an {@code int}-returning method */
        public int callInt(final Object... args) {
            return ((Number)call(args)).intValue();
        }

        /** @return {@link #call} of a {@code boolean}-returning method */
        public boolean callBoolean(final Object... args) {
            return (Boolean)call(args);
        }

        private Object invoke(final Object receiver, final Object[] args) {
            try {
                return target instanceof Method ? ((Method)target).invoke(receiver, args)
                    : ((Constructor<?>)target).newInstance(args);
            } catch (final InvocationTargetException e) {
                final Throwable cause = e.getCause();
                if (cause instanceof RuntimeException) {
                    throw (RuntimeException)cause;
                }
                if (cause instanceof Error) {
                    throw (Error)cause;
                }
                throw new AssertionError(cause);
            } catch (final ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }

        @Override
        public String toString() {
            return target.toString();
        }
    }
}
