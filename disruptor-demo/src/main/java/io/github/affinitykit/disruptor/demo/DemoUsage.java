package io.github.affinitykit.disruptor.demo;

import io.github.affinitykit.core.cli.KitVersion;
import picocli.CommandLine.Command;

/**
 * What both demo commands' {@code --help} and {@code --version} share, as a picocli mixin whose
 * {@code @Command} attributes picocli merges into the command that holds it: the standard {@code
 * -h}/{@code -V} options, the kit's version, options listed in table order, and the exit statuses
 * (both commands end with {@link KitRun}: 0 when every event reached every consumer in order, 1
 * when one did not, 2 for a bad option or pool override). A command holds it in a {@code @Mixin}
 * field declared after its option table, so {@code -h} and {@code -V} are listed last.
 *
 * <p>Thread safety: stateless.
 */
@Command(
    mixinStandardHelpOptions = true,
    versionProvider = KitVersion.class,
    sortOptions = false,
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {
      "0:every event reached every consumer, in order",
      "1:an event was lost or reordered",
      "2:a bad option or pool override (-Daffinitykit.pool, AFFINITYKIT_POOL)"
    })
final class DemoUsage {}
