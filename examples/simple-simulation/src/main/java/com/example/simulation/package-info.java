/** An example application that uses Tributary's library modules through tributary-bom. */
package com.example.simulation;
