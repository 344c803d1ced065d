package io.tributary.flower.server.internal;

import io.tributary.flower.server.RemoteClientException;
import io.tributary.flower.server.FlowerServerException;
import io.tributary.flower.server.InitialParameters;
import io.tributary.flower.server.ServerConfig;
import io.tributary.tensor.Tensor;
import io.tributary.tensor.serialization.Serializer;
import io.tributary.tensor.serialization.SerializerRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.SplittableRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The first model: the configured tensors, or those of one seeded-random connected client. */
final class InitialModel {
  private static final Logger LOG = LoggerFactory.getLogger(InitialModel.class);

  private final ServerConfig config;
  private final ClientManager manager;
  private final SerializerRegistry registry;

  InitialModel(ServerConfig config, ClientManager manager, SerializerRegistry registry) {
    this.config = config;
    this.manager = manager;
    this.registry = registry;
  }

  SequencedMap<String, Tensor> fetch() throws FlowerServerException {
    return switch (config.initial()) {
      case InitialParameters.Given g -> g.tensors();
      case InitialParameters.Resumed r -> r.tensors();
      case InitialParameters.FromClient f -> fromClient();
    };
  }

  /**
   * Asks the connected clients, in an order drawn with the seed, until one gives usable
   * parameters; a client whose parameters fail (do not decode, or are not finite) is skipped.
   */
  private SequencedMap<String, Tensor> fromClient() throws FlowerServerException {
    List<RemoteClient> clients = new java.util.ArrayList<>(manager.all());
    if (clients.isEmpty()) {
      throw new FlowerServerException("no client is connected to ask for initial parameters");
    }
    SplittableRandom random = new SplittableRandom(config.seed());
    RemoteClientException last = null;
    while (!clients.isEmpty()) {
      RemoteClient chosen = clients.remove(random.nextInt(clients.size()));
      LOG.info("asking client {} for the initial parameters", chosen.id());
      try {
        List<Tensor> tensors = RemoteClientWork.parametersOf(chosen, registry,
            config.roundTimeout());
        SequencedMap<String, Tensor> named = new LinkedHashMap<>();
        for (int i = 0; i < tensors.size(); i++) {
          named.put(Serializer.defaultName(i), tensors.get(i));
        }
        return named;
      } catch (RemoteClientException e) {
        LOG.warn("client {} gave no usable initial parameters: {}", chosen.id(), e.getMessage());
        last = e;
      }
    }
    throw new FlowerServerException("no initial parameters: " + last.getMessage(), last);
  }
}
