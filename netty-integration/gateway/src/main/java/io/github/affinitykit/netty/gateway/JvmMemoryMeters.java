package io.github.affinitykit.netty.gateway;

import com.sun.management.GcInfo;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The memory part of {@code /metrics}: JVM heap and non-heap use and limits, the JDK's direct
 * buffer pool, and what Netty's default allocator holds, so that a client who makes the gateway
 * buffer shows up before it hurts. Each gauge reads its MX bean when scraped.
 *
 * <p>Thread safety: stateless; the MX beans are thread-safe.
 */
final class JvmMemoryMeters {
  private JvmMemoryMeters() {}

  static void register(MeterRegistry registry) {
    MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
    String used = "jvm_memory_used_bytes";
    String usedHelp = "Memory used by the JVM, by area.";
    String max = "jvm_memory_max_bytes";
    String maxHelp = "Most memory the JVM may use, by area (-1: none).";
    gauge(registry, used, usedHelp, mem, m -> m.getHeapMemoryUsage().getUsed(), "area", "heap");
    gauge(
        registry, used, usedHelp, mem, m -> m.getNonHeapMemoryUsage().getUsed(), "area", "nonheap");
    gauge(registry, max, maxHelp, mem, m -> m.getHeapMemoryUsage().getMax(), "area", "heap");
    gauge(registry, max, maxHelp, mem, m -> m.getNonHeapMemoryUsage().getMax(), "area", "nonheap");
    gauge(
        registry,
        "jvm_memory_used_after_gc_bytes",
        "Heap in use right after the latest collection (young or old), over every heap pool: what"
            + " a leak grows.",
        ManagementFactory.getGarbageCollectorMXBeans(),
        JvmMemoryMeters::heapAfterGc,
        "area",
        "heap");
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      String help = "Memory of the JDK's buffer pools.";
      gauge(
          registry,
          "jvm_buffer_memory_used_bytes",
          help,
          pool,
          BufferPoolMXBean::getMemoryUsed,
          "pool",
          pool.getName());
    }
    if (ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider p) {
      ByteBufAllocatorMetric m = p.metric();
      String name = "affinitykit_netty_allocator_used_bytes";
      String help = "Memory held by Netty's default buffer allocator, by kind.";
      gauge(registry, name, help, m, ByteBufAllocatorMetric::usedDirectMemory, "kind", "direct");
      gauge(registry, name, help, m, ByteBufAllocatorMetric::usedHeapMemory, "kind", "heap");
    }
  }

  private static <T> void gauge(
      MeterRegistry registry,
      String name,
      String help,
      T source,
      ToDoubleFunction<T> value,
      String... tags) {
    Gauge.builder(name, source, value)
        .description(help)
        .tags(tags)
        .strongReference(true)
        .register(registry);
  }

  /**
   * The heap in use right after the latest collection of any collector (each pool's usage after it,
   * as the GC's own log reports it: the old generation counts as it was then, not as of its own
   * latest collection), 0 before the first or where the JDK does not say.
   */
  private static double heapAfterGc(List<GarbageCollectorMXBean> collectors) {
    GcInfo latest = null;
    for (GarbageCollectorMXBean c : collectors) {
      if (c instanceof com.sun.management.GarbageCollectorMXBean g) {
        GcInfo info = g.getLastGcInfo();
        if (info != null && (latest == null || info.getEndTime() > latest.getEndTime())) {
          latest = info;
        }
      }
    }
    if (latest == null) {
      return 0;
    }
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      MemoryUsage u = latest.getMemoryUsageAfterGc().get(p.getName());
      if (p.getType() == MemoryType.HEAP && u != null) {
        sum += u.getUsed();
      }
    }
    return sum;
  }
}
