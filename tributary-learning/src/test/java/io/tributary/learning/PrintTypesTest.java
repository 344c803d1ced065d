package io.tributary.learning;

import io.tributary.graph.models.Models;
import org.junit.jupiter.api.Test;

class PrintTypesTest {
  @Test
  void print() {
    LearningProcess p = FedProx.build(Models.mclr(), 20, 10, 0.01, 1, 0);
    System.out.println("INIT " + p.initialize().type());
    System.out.println(p.initialize().format());
    System.out.println("NEXT " + p.next().type());
    System.out.println(p.next().format());
    System.out.println("EVAL " + p.evaluate().type());
    System.out.println(p.evaluate().format());
  }
}
