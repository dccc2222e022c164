/**
 * The runnable demo: {@link io.github.affinitykit.disruptor.demo.DemoMain} measures 1P→1C and a
 * 1P→3C pipeline under each wait strategy and pinning, and prints a Markdown table.
 */
package io.github.affinitykit.disruptor.demo;
