/** Tests of the runtime against federated-language, the Federated Core's own implementation. */
package io.tributary.runtime.interop;
