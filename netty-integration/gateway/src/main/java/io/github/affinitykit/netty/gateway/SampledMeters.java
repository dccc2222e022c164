package io.github.affinitykit.netty.gateway;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;

/**
 * Meters whose series come and go between scrapes (one per thread, loop, close code, HTTP status):
 * each scrape sets the values it sees, {@link #sweep()} then removes the series not set since the
 * previous sweep, so that a thread that ended leaves {@code /metrics}.
 *
 * <p>Thread safety: not thread-safe; the owner calls it from one scrape at a time. The registry
 * reads the values from any thread (they are volatile).
 */
final class SampledMeters {
  /** A series: its name, counter or gauge, and labels. */
  private record Key(String name, boolean counter, Tags tags) {}

  /** The value a registered meter reads, and whether this scrape set it. */
  private static final class Value {
    private volatile double value;
    private boolean seen;
    private Meter meter;
  }

  private final MeterRegistry registry;
  private final Map<Key, Value> series = new HashMap<>();

  SampledMeters(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  /** Sets counter {@code name} (ending in {@code _total}); tags alternate names and values. */
  void counter(String name, String help, double value, String... tags) {
    set(new Key(name, true, Tags.of(tags)), help, value);
  }

  /** Sets gauge {@code name}; tags alternate names and values. */
  void gauge(String name, String help, double value, String... tags) {
    set(new Key(name, false, Tags.of(tags)), help, value);
  }

  /** Removes every series not set since the previous sweep. */
  void sweep() {
    for (Iterator<Value> it = series.values().iterator(); it.hasNext(); ) {
      Value v = it.next();
      if (!v.seen) {
        registry.remove(v.meter);
        it.remove();
      }
      v.seen = false;
    }
  }

  private void set(Key key, String help, double value) {
    Value v = series.get(key);
    if (v == null) {
      v = new Value();
      v.meter =
          key.counter()
              ? FunctionCounter.builder(key.name(), v, x -> x.value)
                  .description(help)
                  .tags(key.tags())
                  .register(registry)
              : Gauge.builder(key.name(), v, x -> x.value)
                  .description(help)
                  .tags(key.tags())
                  .strongReference(true)
                  .register(registry);
      series.put(key, v);
    }
    v.value = value;
    v.seen = true;
  }
}
