/** An application that runs Tributary's simulations on a Spark cluster. */
package com.example.spark;
