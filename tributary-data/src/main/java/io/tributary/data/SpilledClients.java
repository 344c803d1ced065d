package io.tributary.data;

import java.io.Closeable;
import java.io.IOException;

/**
 * A {@link FederatedSource} whose rows were read from one file and spilled ({@link ClientRows}):
 * what {@link CsvClients} and {@link ParquetClients} are once open.
 */
abstract sealed class SpilledClients implements FederatedSource, Closeable
    permits CsvClients, ParquetClients {
  private final ClientRows rows;

  SpilledClients(ClientRows rows) {
    this.rows = rows;
  }

  @Override
  public String name() {
    return rows.name();
  }

  @Override
  public int clients() {
    return rows.clients();
  }

  @Override
  public Dataset test() {
    return rows.test();
  }

  @Override
  public long[] exampleShape() {
    return new long[] {rows.features()};
  }

  @Override
  public int numClasses() {
    return rows.numClasses();
  }

  /** Client {@code k}'s rows in the file, the held-out ones included. */
  public int rows(int k) {
    return rows.rows(k);
  }

  /**
   * Client {@code k}'s training rows, read from the spill file.
   *
   * @throws IOException when the spill file cannot be read
   */
  @Override
  public Dataset client(int k) throws IOException {
    return rows.client(k);
  }

  /** Deletes the spill file. */
  @Override
  public void close() throws IOException {
    rows.close();
  }
}
