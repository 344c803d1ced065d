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

  private SequencedMap<String, Tensor> fromClient() throws FlowerServerException {
    List<ClientProxy> clients = manager.all();
    if (clients.isEmpty()) {
      throw new FlowerServerException("no client is connected to ask for initial parameters");
    }
    ClientProxy chosen = clients.get(new SplittableRandom(config.seed()).nextInt(clients.size()));
    LOG.info("asking client {} for the initial parameters", chosen.id());
    List<Tensor> tensors;
    try {
      tensors = RemoteClientWork.parametersOf(chosen, registry, config.roundTimeout());
    } catch (RemoteClientException e) {
      throw new FlowerServerException("no initial parameters: " + e.getMessage(), e);
    }
    SequencedMap<String, Tensor> named = new LinkedHashMap<>();
    for (int i = 0; i < tensors.size(); i++) {
      named.put(Serializer.defaultName(i), tensors.get(i));
    }
    return named;
  }
}
