package io.github.affinitykit.hostreport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KernelCmdlineTest {
  @Test
  void shouldReadFlagsAndListsWhenIsolcpusHasFlags() {
    KernelCmdline c =
        KernelCmdline.parse(
            "BOOT_IMAGE=/vmlinuz isolcpus=managed_irq,domain,19-23 nohz_full=19-23"
                + " rcu_nocbs=19-23 irqaffinity=0-18",
            24);

    assertThat(c.isolcpus()).hasToString("19-23");
    assertThat(c.isolcpusFlags()).containsExactlyInAnyOrder("managed_irq", "domain");
    assertThat(c.nohzFull()).hasToString("19-23");
    assertThat(c.rcuNocbs()).hasToString("19-23");
    assertThat(c.irqAffinity()).hasToString("0-18");
    assertThat(c.problems()).isEmpty();
  }

  @Test
  void shouldApplyTheDomainFlagWhenIsolcpusHasNoFlags() {
    assertThat(KernelCmdline.parse("isolcpus=2,3", 4).isolcpusFlags()).containsExactly("domain");
    assertThat(KernelCmdline.parse("isolcpus=managed_irq,2", 4).isolcpusFlags())
        .containsExactly("managed_irq");
    assertThat(KernelCmdline.parse("quiet", 4).isolcpusFlags()).isEmpty();
  }

  @Test
  void shouldSkipUnknownFlagsAndKeepTheProblemWhenIsolcpusHasATypo() {
    KernelCmdline c = KernelCmdline.parse("isolcpus=domian,nohz,1-3", 4);

    assertThat(c.isolcpus()).hasToString("1-3");
    assertThat(c.isolcpusFlags()).containsExactly("nohz");
    assertThat(c.problems()).singleElement().asString().contains("domian");
  }

  @Test
  void shouldKeepAProblemInsteadOfFailingWhenAListIsBad() {
    KernelCmdline c = KernelCmdline.parse("nohz_full=3-1 rcu_nocbs=9", 4);

    assertThat(c.nohzFull().isEmpty()).isTrue();
    assertThat(c.problems()).hasSize(2);
    assertThat(c.problems().get(0)).startsWith("nohz_full: cpu list \"3-1\"");
    assertThat(c.problems().get(1)).contains("out of range");
  }

  @Test
  void shouldHonourQuotesLastOccurrenceAndTheInitSeparator() {
    KernelCmdline c =
        KernelCmdline.parse("a=\"x y\" nohz_full=1 nohz_full=N -- nohz_full=0 isolcpus=1", 4);

    assertThat(c.param("a")).contains("x y");
    assertThat(c.nohzFull()).hasToString("3");
    assertThat(c.isolcpus().isEmpty()).isTrue();
    assertThat(c.param("missing")).isEmpty();
  }

  @Test
  void shouldRejectNullWithTheParameterName() {
    assertThatThrownBy(() -> KernelCmdline.parse(null, 4)).hasMessage("cmdline");
  }

  @Test
  void shouldEscapeAnUnknownIsolcpusFlagFromTheKernelCommandLine() {
    KernelCmdline k = KernelCmdline.parse("isolcpus=nohz,bad\u0007flag,3 quiet", 8);

    assertThat(k.problems()).singleElement().asString().contains("bad\\u{0007}flag");
    assertThat(k.problems().get(0).codePoints())
        .allSatisfy(
            c ->
                assertThat(Character.isISOControl(c) || Character.getType(c) == Character.FORMAT)
                    .as("U+%04X", c)
                    .isFalse());
  }
}
