package dev.ybbench.ycsb;

import java.util.Properties;
import site.ycsb.WorkloadException;
import site.ycsb.workloads.CoreWorkload;

/**
 * YCSB's CoreWorkload for one of several clients that share one table. YCSB itself lets each
 * client load a slice ({@code insertstart} / {@code insertcount}), but in the run phase every
 * client numbers its new keys from {@code recordcount} up, so two clients insert the same keys.
 * Here client {@code i} of {@code n} turns its k-th new key into {@code recordcount + k·n + i}:
 * the clients' new keys never meet, reads of new keys find the client's own, and everything
 * below {@code recordcount} (the loaded keys, every client's) is read as YCSB reads it. With one
 * client this is CoreWorkload exactly.
 */
public class ClientSlices extends CoreWorkload {
  /** How many clients share the table, and which one this is (0-based). */
  static final String CLIENTS = "ybbench.clients";
  static final String CLIENT_INDEX = "ybbench.client_index";
  /** run.json's record of a client's slice of the load, "start+count" (only with more than one client). */
  static final String LOAD_KEYS = "ybbench.load_keys";

  private long clients = 1;
  private LoadCheckpoint checkpoint;
  private long index;

  @Override
  public void init(Properties p) throws WorkloadException {
    super.init(p);
    clients = Long.parseLong(p.getProperty(CLIENTS, "1"));
    index = Long.parseLong(p.getProperty(CLIENT_INDEX, "0"));
  }

  /** The load draws its key numbers from {@code checkpoint}, which then knows which keys are in. */
  void drawKeysFrom(LoadCheckpoint checkpoint) {
    this.checkpoint = checkpoint;
    keysequence = checkpoint.keys(k -> super.buildKeyName(ownKey(k, recordcount, clients, index)));
  }

  /** The row key of key number {@code keynum}, as this workload names it. */
  String keyName(long keynum) {
    return buildKeyName(keynum);
  }

  @Override
  protected String buildKeyName(long keynum) {
    String drawn = checkpoint == null ? null : checkpoint.drawnName(keynum);
    return drawn != null ? drawn : super.buildKeyName(ownKey(keynum, recordcount, clients, index));
  }

  /** The key number a run-phase insert numbered {@code keynum} becomes for client {@code index} of {@code clients}. */
  static long ownKey(long keynum, long recordcount, long clients, long index) {
    return keynum < recordcount ? keynum : recordcount + (keynum - recordcount) * clients + index;
  }

  /**
   * Client {@code index}'s share of the {@code count} keys from {@code start} that the clients
   * load: {@code [start + ⌊count·index/clients⌋, start + ⌊count·(index+1)/clients⌋)}, as
   * {start, count}. The shares cover the range exactly, none overlapping.
   */
  static long[] slice(long start, long count, int clients, int index) {
    long from = Math.multiplyExact(count, (long) index) / clients;
    long to = Math.multiplyExact(count, (long) index + 1) / clients;
    return new long[] {start + from, to - from};
  }
}
