/**
 * A live web page of a run: {@link io.tributary.ui.LiveView}, a round listener that serves the
 * run's page (the same page as its {@code report.html}) and updates it as rounds end, for a
 * simulation and a Flower server alike.
 */
package io.tributary.ui;
