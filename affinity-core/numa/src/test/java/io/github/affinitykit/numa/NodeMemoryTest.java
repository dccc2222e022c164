package io.github.affinitykit.numa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.affinitykit.core.internal.natives.Errno;
import io.github.affinitykit.core.internal.natives.NativeLayer;
import io.github.affinitykit.numa.internal.MemoryCalls;
import io.github.affinitykit.numa.internal.MemoryLayer;
import io.github.affinitykit.numa.internal.MemoryLayers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Buffers placed on nodes, live on node 0 on each native layer; the counts of several nodes on
 * {@code move_pages} answers made up here.
 */
class NodeMemoryTest {
  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldBindFreshPagesBeforeTheirFirstTouchAndSayWhereTheyAre() {
    for (MemoryLayer layer : MemoryLayers.each()) {
      NodeMemory memory = NodeMemory.on(layer);
      MemoryCalls calls = layer.calls().orElseThrow();
      int page = calls.pageSize();
      ByteBuffer b = memory.allocate(3 * page + 1, MemoryPolicy.bind(0));

      assertThat(b.capacity()).as(layer.name()).isEqualTo(3 * page + 1);
      assertThat(b.isDirect()).isTrue();
      assertThat(b.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
      assertThat(calls.address(b) % page).isZero();
      assertThat(memory.pageNodes(b)).isEqualTo(new PageNodes(new TreeMap<>(), 4, 0, 0));
      int[] mode = {-1};
      long[] mask = new long[16];
      assertThat(calls.getMempolicy(mode, mask, MemoryCalls.maxnode(mask), calls.address(b), 2))
          .isZero(); // MPOL_F_ADDR: the range's policy
      assertThat(mode[0]).isEqualTo(MemoryCalls.MPOL_BIND);
      assertThat(mask[0]).isEqualTo(1L);

      b.putLong(0, 42L).put(3 * page, (byte) 1);
      assertThat(b.getLong(0)).isEqualTo(42L);
      PageNodes touched = memory.pageNodes(b);
      assertThat(touched.pagesOn(0)).isEqualTo(2);
      assertThat(touched.untouched()).isEqualTo(2);
      assertThat(touched).hasToString("node 0: 2 pages, 2 untouched");
      assertThat(memory.reason()).startsWith("Linux: ").endsWith(" calls mbind");
    }
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldPlacePagesByEachPolicyAndRefuseANodeTheHostLacks() {
    NodeMemory memory = NodeMemory.system();
    for (MemoryPolicy p :
        new MemoryPolicy[] {
          MemoryPolicy.DEFAULT,
          MemoryPolicy.LOCAL,
          MemoryPolicy.preferred(0),
          MemoryPolicy.interleave(0)
        }) {
      ByteBuffer b = memory.allocate(8192, p);
      b.put(0, (byte) 1);
      assertThat(memory.pageNodes(b).pagesOn(0)).as(p.toString()).isOne();
    }
    assertThatThrownBy(() -> memory.allocate(10, MemoryPolicy.bind(5)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("mbind bind 5: EINVAL (22) Invalid argument");
    assertThatThrownBy(() -> memory.allocate(0, MemoryPolicy.LOCAL))
        .hasMessage("bytes: 0 (expected: > 0)");
    ByteBuffer jvm = ByteBuffer.allocateDirect(100); // zeroed as allocated: touched
    assertThat(memory.pageNodes(jvm).pagesOn(0)).isPositive();
    assertThat(memory.pageNodes(jvm).untouched()).isZero();
    assertThatThrownBy(() -> memory.pageNodes(ByteBuffer.allocate(8)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @EnabledOnOs(OS.LINUX)
  void shouldGiveABufferOfAHugePageOrMoreHugePagesOfItsOwn() {
    for (MemoryLayer layer : MemoryLayers.each()) {
      NodeMemory memory = NodeMemory.on(layer);
      MemoryCalls calls = layer.calls().orElseThrow();
      long huge = (long) calls.pageSize() * calls.pageSize() / 8;
      int bytes = (int) (2 * huge + calls.pageSize());
      ByteBuffer a = memory.allocate(bytes, MemoryPolicy.DEFAULT);
      ByteBuffer b = memory.allocate(bytes, MemoryPolicy.DEFAULT);
      long first = calls.address(a);
      long second = calls.address(b);
      assertThat(first % huge).as(layer.name()).isZero();
      assertThat(second % huge).isZero();
      // each spans three whole huge pages: no huge page holds bytes of both
      assertThat(Math.abs(first - second)).isGreaterThanOrEqualTo(3 * huge);
      a.put(bytes - 1, (byte) 7);
      b.put(0, (byte) 9);
      assertThat(a.get(bytes - 1)).isEqualTo((byte) 7);
      assertThat(b.get(0)).isEqualTo((byte) 9);
      assertThat(memory.pageNodes(a).pagesOn(0) + memory.pageNodes(b).pagesOn(0))
          .isPositive(); // touched; where else is THP's business, on node 0 here
      assertThat(calls.address(memory.allocate(100, MemoryPolicy.DEFAULT)) % calls.pageSize())
          .isZero();
    }
  }

  @Test
  void shouldCountThePagesOfEachNodeApartFromUntouchedAndUnknownOnes() {
    int enoent = -Errno.ENOENT;
    PageNodes p = PageNodes.of(new int[] {1, 0, 1, enoent, -Errno.EPERM, 3, 1, -Errno.EFAULT});
    Map<Integer, Integer> expected = new TreeMap<>(Map.of(0, 1, 1, 3, 3, 1));
    assertThat(p.pagesByNode()).containsExactlyEntriesOf(expected);
    assertThat(p.pagesOn(1)).isEqualTo(3);
    assertThat(p.pagesOn(2)).isZero();
    assertThat(p.untouched()).isEqualTo(2);
    assertThat(p.unknown()).isOne();
    assertThat(p.pages()).isEqualTo(8);
    assertThat(p)
        .hasToString("node 0: 1 pages, node 1: 3 pages, node 3: 1 pages, 2 untouched, 1 unknown");
    assertThat(PageNodes.of(new int[0])).hasToString("no pages");
    assertThat(PageNodes.failed(Errno.ESRCH)).hasToString("move_pages: ESRCH (3) No such process");
    assertThat(PageNodes.failed(-1).pages()).isZero();
  }

  @Test
  void shouldSayWhyWhereThePlatformHasNoMemoryCalls() {
    NodeMemory none =
        NodeMemory.on(MemoryLayer.on(NativeLayer.load("auto", "Mac OS X", "aarch64")));
    assertThat(none.isSupported()).isFalse();
    assertThat(none).hasToString("NodeMemory[os.name Mac OS X: only Linux is supported]");
    assertThatThrownBy(() -> none.allocate(10, MemoryPolicy.LOCAL))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("node memory: os.name Mac OS X: only Linux is supported");
    assertThat(none.pageNodes(ByteBuffer.allocateDirect(8)))
        .hasToString("no move_pages call")
        .extracting(PageNodes::errno)
        .isEqualTo(-1);
  }
}
