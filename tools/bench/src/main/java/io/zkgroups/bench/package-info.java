/** Benchmark commands; each main class prints its figures and the parameters it ran with. */
package io.zkgroups.bench;
