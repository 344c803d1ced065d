package io.tributary.flower.records;

import java.util.Objects;

/**
 * Flower's message {@code Metadata}, field for field. Times are seconds since the epoch, as
 * Flower's {@code created_at}; {@code ttl} is in seconds.
 */
public record Metadata(long runId, String messageId, long srcNodeId, long dstNodeId,
    String replyToMessageId, String groupId, double ttl, String messageType, double createdAt) {
  public Metadata {
    Objects.requireNonNull(messageId, "messageId");
    Objects.requireNonNull(replyToMessageId, "replyToMessageId");
    Objects.requireNonNull(groupId, "groupId");
    Objects.requireNonNull(messageType, "messageType");
  }

  /** The same metadata with another message id. */
  public Metadata withMessageId(String id) {
    return new Metadata(runId, id, srcNodeId, dstNodeId, replyToMessageId, groupId, ttl,
        messageType, createdAt);
  }
}
