package io.tributary.flower.server.internal;

import io.tributary.flower.Scalar;
import io.tributary.flower.internal.MalformedMessageException;
import io.tributary.flower.internal.ScalarCodec;
import io.tributary.flower.internal.proto.ClientMessage;
import io.tributary.flower.internal.proto.Code;
import io.tributary.flower.internal.proto.ServerMessage;
import io.tributary.flower.passes.ClientPasses;
import io.tributary.flower.server.RemoteClientException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Asks connected clients whether they run client passes: the capability query ({@link
 * ClientPasses#query}) as a {@code GetPropertiesIns}, which a Fleet node receives as a {@code
 * query} message, sent to every client at once and each answer read with {@link
 * ClientPasses#read}.
 */
final class ClientPassesQuery {
  private ClientPassesQuery() {}

  /**
   * The clients of {@code clients} that cannot run client passes, by id, with why: they state
   * no such capability or another protocol version, answer with an error, leave, are busy with
   * another instruction, or do not answer within {@code timeout}.
   */
  static SortedMap<String, String> incapable(List<RemoteClient> clients, Duration timeout) {
    ServerMessage ins = ServerMessage.newBuilder().setGetPropertiesIns(
        ServerMessage.GetPropertiesIns.newBuilder().putAllConfig(
            ScalarCodec.toProto(ClientPasses.query()))).build();
    SortedMap<String, String> out = new TreeMap<>();
    Map<RemoteClient, CompletableFuture<ClientMessage>> sent = new LinkedHashMap<>();
    for (RemoteClient c : clients) {
      try {
        sent.put(c, c.request(ins, Optional.of(timeout)));
      } catch (IllegalStateException e) {
        out.put(c.id(), "busy with another instruction");
      }
    }
    sent.forEach((c, f) -> {
      try {
        ClientMessage.GetPropertiesRes res = RemoteCall.await(c, ins.getMsgCase(), f,
            ClientMessage.MsgCase.GET_PROPERTIES_RES, () -> c.abandon(f,
                "the capability query stopped waiting")).getGetPropertiesRes();
        if (res.getStatus().getCode() != Code.OK) {
          out.put(c.id(), "answered " + res.getStatus().getCode());
          return;
        }
        Map<String, Scalar> properties = ScalarCodec.fromProto(res.getPropertiesMap());
        if (ClientPasses.read(properties) instanceof ClientPasses.Support.NotCapable n) {
          out.put(c.id(), n.reason());
        }
      } catch (RemoteClientException e) {
        out.put(c.id(), e.getMessage());
      } catch (MalformedMessageException e) {
        out.put(c.id(), "its properties do not read: " + e.getMessage());
      }
    });
    return out;
  }
}
