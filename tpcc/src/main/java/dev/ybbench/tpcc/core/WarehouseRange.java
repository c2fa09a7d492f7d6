package dev.ybbench.tpcc.core;

import dev.ybbench.harness.UserError;

/**
 * The warehouses one client loads and drives, within those of the whole database: several
 * client machines split one database by giving each its own range (--start-warehouse) and the
 * same total (--total-warehouses).
 *
 * @param first the first warehouse of this client (1-based)
 * @param count how many warehouses this client has
 * @param total warehouses in the whole database, for remote order lines and payments
 */
public record WarehouseRange(int first, int count, int total) {
  public WarehouseRange {
    if (first < 1 || count < 1 || first + count - 1 > total) {
      throw new UserError("Warehouses " + first + ".." + (first + count - 1) + " do not fit in --total-warehouses "
          + total);
    }
  }

  /** This client's warehouses, the whole database when {@code total} is null. */
  public static WarehouseRange of(int first, int count, Integer total) {
    return new WarehouseRange(first, count, total != null ? total : first + count - 1);
  }

  /**
   * Client {@code index}'s share of {@code total} warehouses split among {@code clients}: warehouses
   * ⌊W·I/N⌋+1 … ⌊W·(I+1)/N⌋, so that together they drive each warehouse once.
   */
  public static WarehouseRange slice(int total, int clients, int index) {
    int first = (int) ((long) total * index / clients) + 1;
    int end = (int) ((long) total * (index + 1) / clients);
    if (end < first) {
      throw new UserError("--clients " + clients + " is more than the " + total + " warehouses: client " + index
          + " would have none; use fewer clients or more --warehouses");
    }
    return new WarehouseRange(first, end - first + 1, total);
  }

  public int last() {
    return first + count - 1;
  }

  /** ITEM is shared by every warehouse; the client that has warehouse 1 loads it. */
  public boolean loadsItems() {
    return first == 1;
  }

  /** Whether this client has the whole database, so the population can be checked in full. */
  public boolean isWhole() {
    return first == 1 && count == total;
  }

  @Override
  public String toString() {
    return first + ".." + last();
  }
}
