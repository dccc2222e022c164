package io.github.affinitykit.hostreport.proc;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.internal.KernelLimits;
import io.github.affinitykit.core.internal.SysFs;
import io.github.affinitykit.core.testkit.FakeHostFiles;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InterruptTableTest {
  @TempDir Path tmp;

  private InterruptTable table(String text) {
    new FakeHostFiles(tmp).file("proc/interrupts", text);
    return InterruptTable.read(new SysFs(tmp));
  }

  @Test
  void shouldKeepTheCountsAndTheLastColumnAsTheNameWhenRowsAreNumbered() {
    InterruptTable t =
        table(
            "           CPU0       CPU1\n"
                + "  16:         3          4   IO-APIC  16-fasteoi   ehci_hcd:usb1, eth1\n"
                + "  60:         0         12   IR-PCI-MSI 42991616-edge      i40e-eth0-TxRx-0\n"
                + "  61:         5          0   IR-PCI-MSI 42991617-edge\n"
                + " NMI:         0          0   Non-maskable interrupts\n"
                + "  62:         1\n"
                + "  x7:         1          2   chip 7-edge name\n");

    assertThat(t.cpus()).containsExactly(0, 1);
    assertThat(t.rows())
        .containsExactly(
            new InterruptTable.Row(16, List.of("3", "4"), "eth1"),
            new InterruptTable.Row(60, List.of("0", "12"), "i40e-eth0-TxRx-0"),
            new InterruptTable.Row(61, List.of("5", "0"), ""));
  }

  @Test
  void shouldNameNoHandlerForAGicRowWithoutOneAndTheLastColumnForOneWithIt() {
    InterruptTable t =
        table(
            "           CPU0       CPU1\n"
                + "  11:         0          0     GICv3  27 Level\n"
                + "  12:       900        850     GICv3  30 Level     arch_timer\n"
                + "  13:         0          0     GICv3  32 Edge\n");
    assertThat(t.rows()).extracting(InterruptTable.Row::name).containsExactly("", "arch_timer", "");
  }

  @Test
  void shouldHaveNoRowsWhenTheFileIsAbsentOrItsHeaderIsNotCpuColumns() {
    assertThat(InterruptTable.read(new SysFs(tmp)).rows()).isEmpty();
    InterruptTable garbled = table("CPU0 GPU1\n 16: 1 2 IO-APIC 16-fasteoi eth1\n");
    assertThat(garbled.rows()).isEmpty();
    assertThat(garbled.cpus()).isEmpty();
  }

  @Test
  void shouldReadEveryColumnWhenTheHeaderNamesTheKernelsMostCpus() {
    StringBuilder t = new StringBuilder("      ");
    for (int cpu = 0; cpu < KernelLimits.CPUS; cpu++) {
      t.append("CPU").append(cpu).append(' ');
    }
    t.append("\n  16: ").append(" 4000000000".repeat(KernelLimits.CPUS)).append(" IO 16-edge eth0");

    InterruptTable table = table(t.toString());
    assertThat(table.cpus()).hasSize(KernelLimits.CPUS).endsWith(KernelLimits.CPUS - 1);
    assertThat(table.rows()).singleElement().extracting(InterruptTable.Row::name).isEqualTo("eth0");
  }
}
