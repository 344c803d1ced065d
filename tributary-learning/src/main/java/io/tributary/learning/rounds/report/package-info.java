/**
 * The self-contained HTML report of a run of rounds, the simulator's or a server's: inline SVG
 * line charts, the settings, the final figures and every round, with no scripts and nothing
 * fetched from the network. The charts follow the rounds' {@link
 * io.tributary.learning.rounds.RoundRecord.EvaluationKind}. {@link
 * io.tributary.learning.rounds.report.RunPage} is that page in any state of a run: the report is
 * its final state, a live view renders it as rounds end.
 */
package io.tributary.learning.rounds.report;
