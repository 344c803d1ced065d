package io.tributary.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/** The {@link FederatedSource}s of its factories; not an API. */
final class FederatedSources {
  private FederatedSources() {}

  /** Held clients. */
  record Held(String name, List<Dataset> list, Dataset test) implements FederatedSource {
    @Override
    public int clients() {
      return list.size();
    }

    @Override
    public Dataset client(int k) {
      return list.get(k);
    }
  }

  /** Clients read by a {@link FederatedSource.ClientReader}. */
  record Read(String name, int clients, FederatedSource.ClientReader reader,
      Dataset test)
      implements FederatedSource {
    @Override
    public Dataset client(int k) throws IOException {
      Objects.checkIndex(k, clients);
      try {
        return reader.read(k);
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }
  }
}
