package io.github.affinitykit.agent;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;

/**
 * Java threads to kernel thread ids, from HotSpot's thread dump (the {@code DiagnosticCommand}
 * MBean's {@code threadPrint}): each thread's header line gives its Java id ({@code #12}) and its
 * kernel id ({@code nid=0x3039} on JDK 17, {@code nid=12345} from JDK 19). {@code /proc} cannot
 * serve: it keeps 15 characters of a name, and never sees a rename made by another thread.
 *
 * <p>Thread safety: stateless.
 */
final class ThreadIds {
  private static final Pattern HEADER =
      Pattern.compile("^\".*\" #(\\d+) .*\\bnid=(0x[0-9a-fA-F]+|\\d+)\\b");

  private ThreadIds() {}

  /** {@return Java thread id to kernel thread id, for every thread of this JVM now} */
  static Map<Long, Integer> now() throws Exception {
    Object dump =
        ManagementFactory.getPlatformMBeanServer()
            .invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"),
                "threadPrint",
                new Object[] {new String[0]},
                new String[] {String[].class.getName()});
    return parse((String) dump);
  }

  /** {@return Java thread id to kernel thread id, from a thread dump's text} */
  static Map<Long, Integer> parse(String dump) {
    Map<Long, Integer> tids = new HashMap<>();
    for (String line : dump.split("\n")) {
      Matcher m = HEADER.matcher(line);
      if (m.find()) {
        String nid = m.group(2);
        int tid =
            nid.startsWith("0x") ? Integer.parseInt(nid.substring(2), 16) : Integer.parseInt(nid);
        tids.put(Long.parseLong(m.group(1)), tid);
      }
    }
    return tids;
  }
}
