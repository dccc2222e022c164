package io.github.affinitykit.core.cli;

import io.github.affinitykit.core.cpu.CpuSet;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Converts a command-line value in the kernel's cpu-list grammar ({@code 0-3,8}, {@code 1-7:2/4})
 * to a {@link CpuSet}. {@link CommandLines#configure} registers it for every {@link CpuSet} option.
 *
 * <p>Thread safety: stateless; safe to share.
 */
public final class CpuListConverter implements ITypeConverter<CpuSet> {
  /** Creates the converter (picocli instantiates it reflectively, too). */
  public CpuListConverter() {
    // stateless
  }

  /**
   * Parses {@code text} with {@link CpuSet#parse(String)}.
   *
   * @throws TypeConversionException naming the rule the list broke, where
   */
  @Override
  public CpuSet convert(String text) {
    try {
      return CpuSet.parse(text.strip());
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException("a cpu list such as 0-3,8; " + e.getMessage());
    }
  }
}
