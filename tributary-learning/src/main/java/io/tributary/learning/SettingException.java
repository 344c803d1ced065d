package io.tributary.learning;

import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A setting out of range or not applicable, named as the caller knows it: by the library
 * ({@code clientsPerRound must be in [1, 10], got 50}), by {@code config.json}'s key ({@code
 * clients_per_round}) or by the command line's flag ({@code --clients-per-round}). The message is
 * a template whose setting names stand in braces; {@link #render} spells them. The simulation's
 * settings and the libraries they build (differential privacy's {@code DpSettings}) throw it.
 */
public final class SettingException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private static final Pattern NAME = Pattern.compile("\\{([A-Za-z0-9_.]+)}");

  /** The setting at fault, by its library name ({@code clientsPerRound}). */
  private final String setting;
  /** The message with every setting's library name in braces. */
  private final String template;

  /**
   * A problem with {@code setting}, described by {@code template}, in which every setting's
   * library name stands in braces ({@code "{byzantine}: K must be at most {clientsPerRound}"}).
   */
  public SettingException(String setting, String template) {
    super(render(template, UnaryOperator.identity()));
    this.setting = Objects.requireNonNull(setting, "setting");
    this.template = template;
  }

  /**
   * A problem with {@code setting}, described by {@code template} as in {@link
   * #SettingException(String, String)}, found because of {@code cause}.
   */
  public SettingException(String setting, String template, Throwable cause) {
    this(setting, template);
    initCause(cause);
  }

  /** The setting at fault, by its library name, such as {@code clientsPerRound}. */
  public String setting() {
    return setting;
  }

  /** The message with each setting's library name replaced by {@code naming}'s spelling. */
  public String render(UnaryOperator<String> naming) {
    return render(template, naming);
  }

  private static String render(String template, UnaryOperator<String> naming) {
    Matcher m = NAME.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(naming.apply(m.group(1))));
    }
    return m.appendTail(out).toString();
  }
}
