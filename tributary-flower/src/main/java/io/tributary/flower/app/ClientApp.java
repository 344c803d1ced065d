package io.tributary.flower.app;

import io.tributary.flower.records.Message;
import io.tributary.flower.records.MessageError;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A Java ClientApp, shaped like Flower's {@code flwr.clientapp.ClientApp}: handlers registered by
 * message type. {@code train}, {@code evaluate} and {@code query} are Flower's built-in types;
 * {@code builder().train("foo", h)} registers {@code train.foo}, as {@code @app.train("foo")} does,
 * and {@link Builder#on} any type by its full name.
 *
 * <p>{@link #handle} never throws: a message of a type without a handler, a handler that throws
 * or returns something other than a reply to the message all become an error reply (Flower's
 * {@code Error} with a code and a reason), and the app goes on serving.
 *
 * <p>A {@code train} or {@code evaluate} message whose numpy arrays hold a NaN or infinite
 * element is answered with an error reply naming the array and the element, before any mod or
 * handler sees it: a model that is not finite would only spread. An app whose messages may
 * legitimately carry such values opts out with {@link Builder#acceptNonFinite()}.
 */
public final class ClientApp {
  public static final String TRAIN = "train";
  public static final String EVALUATE = "evaluate";
  public static final String QUERY = "query";

  private final Map<String, MessageHandler> handlers;
  private final java.util.List<Mod> mods;
  private final boolean acceptNonFinite;
  private final java.util.Optional<NodeCapabilities> capabilities;

  private ClientApp(Map<String, MessageHandler> handlers, java.util.List<Mod> mods,
      boolean acceptNonFinite, java.util.Optional<NodeCapabilities> capabilities) {
    this.handlers = Map.copyOf(handlers);
    this.mods = java.util.List.copyOf(mods);
    this.acceptNonFinite = acceptNonFinite;
    this.capabilities = capabilities;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The message types this app handles. */
  public Set<String> messageTypes() {
    return handlers.keySet();
  }

  /**
   * This app with {@code more} mods inside the ones it has, in the order given: how a mod is
   * added to an app built elsewhere, e.g. {@code LegacyClientApp.of(client).withMods(new
   * SecAggPlusMod())}.
   */
  public ClientApp withMods(Mod... more) {
    java.util.List<Mod> all = new java.util.ArrayList<>(mods);
    for (Mod m : more) {
      all.add(Objects.requireNonNull(m, "mod"));
    }
    return new ClientApp(handlers, all, acceptNonFinite, capabilities);
  }

  /**
   * This app answering the server's capability query ({@link NodeCapabilities#isQuery}) with
   * {@code stated}, before its mods and handlers see it: what the node states about itself, not
   * what the app's query handler does.
   */
  public ClientApp withCapabilities(NodeCapabilities stated) {
    return new ClientApp(handlers, mods, acceptNonFinite,
        java.util.Optional.of(Objects.requireNonNull(stated, "stated")));
  }

  /** The capabilities this app states when asked; empty when it states none. */
  public java.util.Optional<NodeCapabilities> capabilities() {
    return capabilities;
  }

  /** The reply to {@code message}: the handler's, or an error reply. */
  public Message handle(Message message, Context context) {
    String type = message.metadata().messageType();
    if (!message.hasContent()) {
      return message.replyError(new MessageError(MessageError.CLIENT_APP_RAISED_EXCEPTION,
          "the message carries an error, not content: " + message.error().orElseThrow()));
    }
    if (capabilities.isPresent() && NodeCapabilities.isQuery(message)) {
      return capabilities.get().answer(message);
    }
    MessageHandler h = handlers.get(type);
    if (h == null) {
      return message.replyError(new MessageError(MessageError.LOAD_CLIENT_APP_EXCEPTION,
          "this ClientApp has no handler for message type '" + type + "' (it handles "
              + handlers.keySet() + ")"));
    }
    if (!acceptNonFinite && NonFiniteArrays.applies(type)) {
      java.util.Optional<String> nonFinite = NonFiniteArrays.problem(message);
      if (nonFinite.isPresent()) {
        return message.replyError(new MessageError(MessageError.CLIENT_APP_RAISED_EXCEPTION,
            "the model in the '" + type + "' message is not finite: " + nonFinite.get()));
      }
    }
    MessageHandler chain = (m, c) -> call(h, m, c);
    for (Mod mod : mods.reversed()) {
      MessageHandler next = chain;
      chain = (m, c) -> mod.apply(m, c, next);
    }
    Message reply = call(chain, message, context);
    if (reply == null
        || !reply.metadata().replyToMessageId().equals(message.metadata().messageId())
        || reply.metadata().runId() != message.metadata().runId()) {
      return message.replyError(new MessageError(MessageError.CLIENT_APP_RAISED_EXCEPTION,
          "the handler for '" + type + "' did not return a reply to the message"));
    }
    return reply;
  }

  /** {@code h}'s reply, or an error reply carrying what it threw. */
  private static Message call(MessageHandler h, Message message, Context context) {
    try {
      return h.handle(message, context);
    } catch (Exception | LinkageError | AssertionError e) {
      String reason = e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage());
      return message.replyError(new MessageError(MessageError.CLIENT_APP_RAISED_EXCEPTION,
          reason));
    }
  }

  /** Registers handlers. */
  public static final class Builder {
    private final Map<String, MessageHandler> handlers = new LinkedHashMap<>();
    private final java.util.List<Mod> mods = new java.util.ArrayList<>();
    private boolean acceptNonFinite;

    private Builder() {}

    /**
     * Passes {@code train} and {@code evaluate} messages whose arrays hold NaN or infinite
     * elements to the handlers instead of answering them with an error reply.
     */
    public Builder acceptNonFinite() {
      acceptNonFinite = true;
      return this;
    }

    /**
     * Wraps every message's handling in {@code mod} (Flower's {@code ClientApp(mods=[...])});
     * mods run in the order added, the first outermost.
     */
    public Builder mod(Mod mod) {
      mods.add(Objects.requireNonNull(mod, "mod"));
      return this;
    }

    /** Handles {@code train} messages. */
    public Builder train(MessageHandler h) {
      return on(TRAIN, h);
    }

    /** Handles {@code train.<action>} messages. */
    public Builder train(String action, MessageHandler h) {
      return on(TRAIN + "." + action, h);
    }

    /** Handles {@code evaluate} messages. */
    public Builder evaluate(MessageHandler h) {
      return on(EVALUATE, h);
    }

    /** Handles {@code evaluate.<action>} messages. */
    public Builder evaluate(String action, MessageHandler h) {
      return on(EVALUATE + "." + action, h);
    }

    /** Handles {@code query} messages. */
    public Builder query(MessageHandler h) {
      return on(QUERY, h);
    }

    /** Handles {@code query.<action>} messages. */
    public Builder query(String action, MessageHandler h) {
      return on(QUERY + "." + action, h);
    }

    /**
     * Handles messages of {@code messageType}, a full type name such as {@code train.foo}.
     *
     * @throws IllegalArgumentException when the type already has a handler or is blank
     */
    public Builder on(String messageType, MessageHandler h) {
      Objects.requireNonNull(h, "handler");
      if (messageType == null || messageType.isBlank()) {
        throw new IllegalArgumentException("blank message type");
      }
      if (handlers.putIfAbsent(messageType, h) != null) {
        throw new IllegalArgumentException("message type '" + messageType
            + "' already has a handler");
      }
      return this;
    }

    public ClientApp build() {
      return new ClientApp(handlers, mods, acceptNonFinite, java.util.Optional.empty());
    }
  }
}
