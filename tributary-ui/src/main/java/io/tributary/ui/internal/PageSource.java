package io.tributary.ui.internal;

/**
 * What a {@link PageServer} serves: a state that changes, rendered as a page on demand. A run's
 * state ({@link RunState}) and a node's ({@link NodeState}) are two.
 */
public interface PageSource {
  /** Changes with every event, so that the server knows when to render again. */
  long version();

  /**
   * The page as it is now, in one consistent state.
   *
   * @param script the page's one inline script
   */
  Rendered render(String script);

  /**
   * One rendering.
   *
   * @param version the state's version it shows
   * @param document the whole document, with the script
   * @param main the content of its {@code <main id="run">} element
   * @param ended whether what it shows has ended (a run's end; a node's close)
   */
  record Rendered(long version, String document, String main, boolean ended) {}
}
