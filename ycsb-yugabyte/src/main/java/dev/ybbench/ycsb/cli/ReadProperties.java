package dev.ybbench.ycsb.cli;

import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Properties that remember every name asked for. The runner hands a copy to the workload and the
 * bindings' settings before anything starts; a property given that nothing asked for is one the
 * run would silently ignore, and is named in a warning instead.
 */
public final class ReadProperties extends Properties {
  /** Shared by clones, so a copy handed on still counts. */
  private final transient Set<String> asked = ConcurrentHashMap.newKeySet();

  public ReadProperties(Properties values) {
    values.stringPropertyNames().forEach(n -> setProperty(n, values.getProperty(n)));
  }

  @Override
  public String getProperty(String key) {
    asked.add(key);
    return super.getProperty(key);
  }

  @Override
  public Object get(Object key) {
    if (key instanceof String s) {
      asked.add(s);
    }
    return super.get(key);
  }

  @Override
  public boolean containsKey(Object key) {
    if (key instanceof String s) {
      asked.add(s);
    }
    return super.containsKey(key);
  }

  /** The names asked for so far. */
  public Set<String> asked() {
    return Set.copyOf(asked);
  }
}
