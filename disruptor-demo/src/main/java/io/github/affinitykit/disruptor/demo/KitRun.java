package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.core.AffinityKit;
import io.github.affinitykit.core.cli.CommandLines;
import java.io.PrintStream;
import java.util.Objects;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What both demo commands do once their flags are checked: take the kit (a bad {@code
 * -Daffinitykit.pool} or {@code AFFINITYKIT_POOL} is a usage error, before anything is pinned),
 * run, and answer exit status 0 if every event arrived in order, else 1.
 *
 * <p>Thread safety: immutable; {@link #run} runs on the command's thread.
 *
 * @param kits supplies the kit, probed when a run starts
 * @param console where the run prints its table
 */
record KitRun(Supplier<AffinityKit> kits, PrintStream console) {

  /** A run body: prints to {@code out}, returns whether no event was lost or reordered. */
  @FunctionalInterface
  interface Body<O> {
    boolean run(AffinityKit kit, O options, PrintStream out) throws InterruptedException;
  }

  /** Validates. */
  KitRun {
    Objects.requireNonNull(kits, "kits");
    Objects.requireNonNull(console, "console");
  }

  /** Runs {@code body} with the checked {@code options} on the kit; the exit status. */
  <O> int run(CommandSpec spec, O options, Body<O> body) throws InterruptedException {
    AffinityKit kit = CommandLines.configured(spec, kits);
    return body.run(kit, options, console) ? 0 : 1;
  }
}
