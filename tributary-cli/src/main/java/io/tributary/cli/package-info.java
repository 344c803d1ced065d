/**
 * The {@code tributary} command line: {@code simulate}, {@code inspect} and {@code convert}.
 *
 * <p>Every command writes through the {@link picocli.CommandLine}'s own out and err writers, so
 * tests can run them in-process, and returns an exit status instead of calling
 * {@code System.exit}; only {@link io.tributary.cli.Main#main} ends the JVM. Exit statuses:
 * 0 success, 1 an unexpected internal error or a simulation stopped by a failure, 2 a usage error
 * or unreadable input.
 */
package io.tributary.cli;
