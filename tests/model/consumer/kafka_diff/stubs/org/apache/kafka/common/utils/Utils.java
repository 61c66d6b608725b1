package org.apache.kafka.common.utils;
import java.util.*;
// Harness stub: only what the assignors call.
public final class Utils {
  public static <T extends Comparable<? super T>> List<T> sorted(Collection<T> c) { List<T> l = new ArrayList<>(c); Collections.sort(l); return Collections.unmodifiableList(l); }
  public static <T> Class<? extends T> loadClass(String klass, Class<T> base) throws ClassNotFoundException { throw new ClassNotFoundException(); }
  public static <T> T newInstance(Class<T> c) { throw new UnsupportedOperationException(); }
}
