/**
 * The self-contained HTML report of a simulation run: inline SVG line charts, the settings and the
 * final figures, with no scripts and nothing fetched from the network.
 */
package io.tributary.simulation.report;
