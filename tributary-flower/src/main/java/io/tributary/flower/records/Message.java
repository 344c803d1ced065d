package io.tributary.flower.records;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Flower's {@code Message}: metadata and either content or an error.
 *
 * <p>A handler answers with {@link #reply(RecordDict)} or {@link #replyError(MessageError)}: the
 * reply's metadata are derived as Flower's {@code Message(content, reply_to=msg)} derives them
 * (source and destination swapped, same run, group and type, and a TTL that ends when the
 * instruction's does). Its message id is left empty: the SuperNode sets it to the reply's object
 * id when it sends it.
 */
public final class Message {
  private final Metadata metadata;
  private final RecordDict content;
  private final MessageError error;

  private Message(Metadata metadata, RecordDict content, MessageError error) {
    this.metadata = Objects.requireNonNull(metadata, "metadata");
    this.content = content;
    this.error = error;
  }

  /** A message with content. */
  public static Message ofContent(Metadata metadata, RecordDict content) {
    return new Message(metadata, Objects.requireNonNull(content, "content"), null);
  }

  /** A message that carries an error instead of content. */
  public static Message ofError(Metadata metadata, MessageError error) {
    return new Message(metadata, null, Objects.requireNonNull(error, "error"));
  }

  public Metadata metadata() {
    return metadata;
  }

  public boolean hasContent() {
    return content != null;
  }

  /**
   * The content.
   *
   * @throws IllegalStateException when the message carries an error
   */
  public RecordDict content() {
    if (content == null) {
      throw new IllegalStateException("message carries an error: " + error);
    }
    return content;
  }

  public Optional<MessageError> error() {
    return Optional.ofNullable(error);
  }

  /** The same message with another message id. */
  public Message withMessageId(String id) {
    return new Message(metadata.withMessageId(id), content, error);
  }

  /** A reply to this message carrying {@code content}. */
  public Message reply(RecordDict content) {
    return ofContent(replyMetadata(), content);
  }

  /** A reply to this message carrying {@code error}. */
  public Message replyError(MessageError error) {
    return ofError(replyMetadata(), error);
  }

  private Metadata replyMetadata() {
    Instant now = Instant.now();
    double current = now.getEpochSecond() + now.getNano() / 1e9;
    double ttl = metadata.createdAt() + metadata.ttl() - current;
    return new Metadata(metadata.runId(), "", metadata.dstNodeId(), metadata.srcNodeId(),
        metadata.messageId(), metadata.groupId(), ttl, metadata.messageType(), current);
  }

  @Override
  public String toString() {
    return "Message[" + metadata + ", " + (content != null ? content : error) + "]";
  }
}
