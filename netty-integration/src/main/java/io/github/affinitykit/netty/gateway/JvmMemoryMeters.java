package io.github.affinitykit.netty.gateway;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;

/**
 * The memory part of {@code /metrics}: JVM heap and non-heap use and limits, the JDK's direct
 * buffer pool, and what Netty's default allocator holds, so that a client who makes the gateway
 * buffer shows up before it hurts.
 *
 * <p>Thread safety: stateless; the MX beans are thread-safe.
 */
final class JvmMemoryText {
  private JvmMemoryText() {}

  static void write(PromWriter w) {
    MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
    MemoryUsage heap = mem.getHeapMemoryUsage();
    MemoryUsage nonHeap = mem.getNonHeapMemoryUsage();
    w.family("jvm_memory_used_bytes", "gauge", "Memory used by the JVM, by area.")
        .sample("jvm_memory_used_bytes", heap.getUsed(), "area", "heap")
        .sample("jvm_memory_used_bytes", nonHeap.getUsed(), "area", "nonheap");
    w.family("jvm_memory_max_bytes", "gauge", "Most memory the JVM may use, by area (-1: none).")
        .sample("jvm_memory_max_bytes", heap.getMax(), "area", "heap")
        .sample("jvm_memory_max_bytes", nonHeap.getMax(), "area", "nonheap");
    w.family("jvm_buffer_memory_used_bytes", "gauge", "Memory of the JDK's buffer pools.");
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      w.sample("jvm_buffer_memory_used_bytes", pool.getMemoryUsed(), "pool", pool.getName());
    }
    if (ByteBufAllocator.DEFAULT instanceof ByteBufAllocatorMetricProvider p) {
      ByteBufAllocatorMetric m = p.metric();
      String name = "affinitykit_netty_allocator_used_bytes";
      w.family(name, "gauge", "Memory held by Netty's default buffer allocator, by kind.")
          .sample(name, m.usedDirectMemory(), "kind", "direct")
          .sample(name, m.usedHeapMemory(), "kind", "heap");
    }
  }
}
