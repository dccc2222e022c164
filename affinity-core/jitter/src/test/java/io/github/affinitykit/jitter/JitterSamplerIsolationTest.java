package io.github.affinitykit.jitter;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cpu.CpuSet;
import io.github.affinitykit.core.testkit.FakeIsolator;
import io.github.affinitykit.core.testkit.FixtureKits;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sampler whose group isolates its CPUs ({@code b -> b.isolate(true)}) says in its report how the
 * isolation stood while it sampled, so that an arm whose isolation was refused cannot pass for an
 * isolated one; on a fixture host, through a {@link FakeIsolator}.
 */
@Timeout(30)
class JitterSamplerIsolationTest {
  @TempDir Path root;

  @Test
  void shouldNoteTheGroupsIsolationAsItStoodWhileSampledThenGiveItUp() {
    FakeIsolator isolator = new FakeIsolator();
    AffinityKit kit = FixtureKits.isolating(root, 4, b -> isolator);

    JitterReport report = sampler(kit).group(b -> b.isolate(true)).run();

    assertThat(report.notes()).first().isEqualTo("isolation: isolated by FakeIsolator");
    assertThat(isolator.made()).hasSize(1);
    assertThat(isolator.made().get(0).cpus()).isEqualTo(CpuSet.of(3));
    assertThat(isolator.made().get(0).isActive()).as("given up with the group").isFalse();
  }

  @Test
  void shouldNoteNoIsolationWhenTheGroupAskedForNone() {
    FakeIsolator isolator = new FakeIsolator();
    AffinityKit kit = FixtureKits.isolating(root, 4, b -> isolator);

    JitterReport report = sampler(kit).run();

    assertThat(report.notes()).noneMatch(n -> n.startsWith("isolation:"));
    assertThat(isolator.made()).isEmpty();
  }

  private JitterSampler sampler(AffinityKit kit) {
    return JitterSampler.on(kit, CpuSet.of(3))
        .window(Duration.ofMillis(20))
        .root(root)
        .audit(false);
  }
}
