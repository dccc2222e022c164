package io.github.affinitykit.numa.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.internal.natives.Errno;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Every implementation of the memory calls (JNA; {@code java.lang.foreign} on JDK 22+) answers
 * every call alike: results, and {@code -errno} for a refusal; a mask or an array too short for the
 * kernel's reading is refused before the call.
 */
@EnabledOnOs(OS.LINUX)
class MemoryCallsTest {
  /** The lowest node id this host does not have online (5 on most hosts, not on every one). */
  private static int absentNode() throws IOException {
    Path online = Path.of("/sys/devices/system/node/online");
    CpuSet nodes =
        Files.exists(online) ? CpuSet.parse(Files.readString(online).trim()) : CpuSet.of(0);
    int n = 0;
    while (nodes.contains(n)) {
      n++;
    }
    return n;
  }

  @Test
  void shouldAnswerTheThreadPolicyCallsAlike() throws IOException {
    int absent = absentNode();
    for (MemoryLayer layer : MemoryLayers.each()) {
      MemoryCalls calls = layer.calls().orElseThrow();
      long[] node0 = {1L};
      long[] mask = new long[16];
      int[] mode = {-1};
      assumeTrue(
          calls.getMempolicy(mode, mask, MemoryCalls.maxnode(mask), 0, 0) == 0
              && mode[0] == MemoryCalls.MPOL_DEFAULT,
          "this thread inherited a memory policy (numactl?): the test sets and resets DEFAULT");
      try {
        assertThat(calls.setMempolicy(MemoryCalls.MPOL_BIND, node0, MemoryCalls.maxnode(node0)))
            .as(layer.name())
            .isZero();
        assertThat(calls.getMempolicy(mode, mask, MemoryCalls.maxnode(mask), 0, 0)).isZero();
        assertThat(mode[0]).isEqualTo(MemoryCalls.MPOL_BIND);
        assertThat(mask[0]).isEqualTo(1L);
        long[] none = new long[absent / 64 + 1];
        none[absent / 64] = 1L << (absent % 64);
        assertThat(calls.setMempolicy(MemoryCalls.MPOL_BIND, none, MemoryCalls.maxnode(none)))
            .isEqualTo(-Errno.EINVAL);
        assertThat(calls.setMempolicy(MemoryCalls.MPOL_BIND, new long[0], 0))
            .isEqualTo(-Errno.EINVAL);
        assertThat(calls.getMempolicy(mode, new long[0], 0, 0, 0)).isZero();
        assertThat(mode[0]).isEqualTo(MemoryCalls.MPOL_BIND); // the failed calls changed nothing
      } finally {
        assertThat(calls.setMempolicy(MemoryCalls.MPOL_DEFAULT, new long[0], 0)).isZero();
      }
      assertThat(calls.getMempolicy(mode, mask, MemoryCalls.maxnode(mask), 0, 0)).isZero();
      assertThat(mode[0]).isEqualTo(MemoryCalls.MPOL_DEFAULT);
      assertThat(mask).containsOnly(0L);
      assertThat(calls.getMempolicy(mode, mask, MemoryCalls.maxnode(mask), 0, 0x100))
          .isEqualTo(-Errno.EINVAL); // no such flag
    }
  }

  @Test
  void shouldAnswerThePageCallsAlike() throws IOException {
    int absent = absentNode();
    for (MemoryLayer layer : MemoryLayers.each()) {
      MemoryCalls calls = layer.calls().orElseThrow();
      int page = calls.pageSize();
      assertThat(Integer.bitCount(page)).as(layer.name()).isOne();
      long addr = calls.map(4L * page);
      assertThat(addr).isPositive();
      long[] node0 = {1L};
      long[] none = new long[absent / 64 + 1];
      none[absent / 64] = 1L << (absent % 64);
      assertThat(calls.mbind(addr, 4L * page, MemoryCalls.MPOL_BIND, node0, 65, 0)).isZero();
      long maxnode = MemoryCalls.maxnode(none);
      assertThat(calls.mbind(addr, 4L * page, MemoryCalls.MPOL_BIND, none, maxnode, 0))
          .isEqualTo(-Errno.EINVAL);
      assertThat(calls.mbind(addr + 1, page, MemoryCalls.MPOL_BIND, node0, 65, 0))
          .isEqualTo(-Errno.EINVAL);
      long[] mask = new long[16];
      int[] mode = {-1};
      assertThat(calls.getMempolicy(mode, mask, MemoryCalls.maxnode(mask), addr, MPOL_F_ADDR))
          .isZero();
      assertThat(mode[0]).isEqualTo(MemoryCalls.MPOL_BIND);
      assertThat(mask[0]).isEqualTo(1L);

      ByteBuffer buffer = calls.buffer(addr, 4 * page);
      assertThat(calls.address(buffer)).isEqualTo(addr);
      assertThat(calls.address(buffer.position(page).slice())).isEqualTo(addr + page);
      buffer.put(0, (byte) 1).put(2 * page, (byte) 1); // touch pages 0 and 2
      long[] pages = {addr, addr + page, addr + 2L * page, addr + 3L * page};
      int[] status = new int[4];
      assertThat(calls.movePages(0, pages, null, status, 0)).isZero();
      assertThat(status[0]).isZero();
      assertThat(status[2]).isZero();
      for (int untouched : new int[] {status[1], status[3]}) { // 6.18: ENOENT; 6.1: EFAULT
        assertThat(untouched).isIn(-Errno.ENOENT, -Errno.EFAULT);
      }
      assertThat(calls.movePages(0, new long[] {addr}, new int[] {absent}, status, 0))
          .isEqualTo(-Errno.ENODEV); // no such node
      assertThat(calls.movePages(Integer.MAX_VALUE, pages, null, status, 0))
          .isEqualTo(-Errno.ESRCH);
      assertThat(calls.unmap(addr, 4L * page)).isZero(); // (what move_pages says then depends on
      // whether another thread of this JVM has mapped the range again meanwhile: not asserted)
      assertThat(calls.map(-1)).isEqualTo(-Errno.ENOMEM);
      assertThat(calls.address(ByteBuffer.allocateDirect(8))).isPositive();
      assertThatThrownBy(() -> calls.address(ByteBuffer.allocate(8)))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  private static final int MPOL_F_ADDR = 2;

  @Test
  void shouldRefuseAMaskOrAnArrayPastItsLengthBeforeTheCallAlike() {
    for (MemoryLayer layer : MemoryLayers.each()) {
      MemoryCalls calls = layer.calls().orElseThrow();
      long[] one = {1L};
      assertThatThrownBy(() -> calls.setMempolicy(MemoryCalls.MPOL_BIND, one, 66))
          .as(layer.name())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("maxnode: 66 (expected: 0 to 64 x words + 1 = 65)");
      assertThatThrownBy(() -> calls.mbind(0, 0, MemoryCalls.MPOL_BIND, one, -1, 0))
          .hasMessage("maxnode: -1 (expected: 0 to 64 x words + 1 = 65)");
      assertThatThrownBy(() -> calls.getMempolicy(new int[0], one, 65, 0, 0))
          .hasMessage("mode: int[0] (expected: room for the mode)");
      assertThatThrownBy(() -> calls.movePages(0, new long[2], null, new int[1], 0))
          .hasMessage("status/nodes: 1/none (expected: at least pages.length = 2)");
      assertThatThrownBy(() -> calls.movePages(0, new long[2], new int[1], new int[2], 0))
          .hasMessage("status/nodes: 2/1 (expected: at least pages.length = 2)");
      assertThat(calls.movePages(0, new long[0], null, new int[0], 0)).isZero();
    }
  }
}
