/**
 * The Fleet API's server side: the calls ({@code FleetService}), their transports, the node's
 * messages in Flower's Message-API form and the App's FAB. Not API.
 */
package io.tributary.flower.fleet.server.internal;
