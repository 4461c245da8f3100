/**
 * The `config create` flags of a plan's TLS to its backend (`backendTls`): a CA bundle read from a
 * local file and stored on the plan (`--backend-ca-file`) or a CA file on the gateway, a client
 * certificate and key from stored secrets (`--backend-client-cert`, `--backend-client-key`, made
 * with `atrium secret create`) or files on the gateway, and the server name verified and sent as SNI.
 */
import { readFile } from "node:fs/promises";
import type { PlanBody, PlanView } from "@atrium/contract/rest";
import type { Command } from "commander";
import { cliErrors } from "../errors.ts";

export interface BackendTlsFlags {
  backendCaFile?: string;
  backendCaPath?: string;
  backendTrustSystemCas?: boolean;
  backendClientCert?: string;
  backendClientKey?: string;
  backendClientCertPath?: string;
  backendClientKeyPath?: string;
  backendServerName?: string;
}

export function addBackendTlsOptions(command: Command): Command {
  return command
    .option(
      "--backend-ca-file <pem>",
      "a local PEM file of the CAs that sign the backend's certificate, stored on the plan; only they are trusted " +
        "unless --backend-trust-system-cas",
    )
    .option(
      "--backend-ca-path <gateway_path>",
      "the same, as a file on each gateway re-read when it changes (a SPIFFE bundle; under ATRIUM_GATEWAY_TLS_FILE_DIRS)",
    )
    .option("--backend-trust-system-cas", "with a CA of the plan's: trust the system CAs as well")
    .option(
      "--backend-client-cert <secret_id>",
      "a stored secret (`atrium secret create <name> --value-stdin < tls.crt`) holding the client certificate the gateway " +
        "presents (mutual TLS), with --backend-client-key",
    )
    .option("--backend-client-key <secret_id>", "a stored secret holding that certificate's private key (PEM)")
    .option(
      "--backend-client-cert-path <gateway_path>",
      "the client certificate as a file on each gateway, re-read when it changes (cert-manager, spiffe-helper)",
    )
    .option("--backend-client-key-path <gateway_path>", "its private key as a file on each gateway")
    .option(
      "--backend-server-name <host>",
      "the name sent as SNI and that the backend's certificate must carry (default: the backend endpoint's host)",
    );
}

/** One PEM from a stored secret or a gateway file flag, or undefined when neither is given. */
function material(
  flags: BackendTlsFlags,
  secret: "backendClientCert" | "backendClientKey",
  path: "backendClientCertPath" | "backendClientKeyPath",
): { secretId: string } | { file: string } | undefined {
  const name = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  const stored = flags[secret];
  const file = flags[path];
  if (stored !== undefined && file !== undefined)
    throw cliErrors.conflictingOptions(name(secret), name(path), "the PEM has one source; keep one");
  if (stored !== undefined) return { secretId: stored };
  if (file !== undefined) return { file };
  return undefined;
}

/** The plan's backend TLS from the flags, or undefined when none is given. */
export async function backendTlsFromFlags(flags: BackendTlsFlags): Promise<PlanBody["backendTls"]> {
  if (flags.backendCaFile !== undefined && flags.backendCaPath !== undefined)
    throw cliErrors.conflictingOptions("--backend-ca-file", "--backend-ca-path", "the plan has one CA bundle");
  if (flags.backendTrustSystemCas && flags.backendCaFile === undefined && flags.backendCaPath === undefined)
    throw cliErrors.optionNeedsAnother(
      "--backend-trust-system-cas",
      "--backend-ca-file <pem> or --backend-ca-path <gateway_path>",
      "without a CA of the plan's own, the system CAs are the ones trusted",
    );
  const clientCertificate = material(flags, "backendClientCert", "backendClientCertPath");
  const clientKey = material(flags, "backendClientKey", "backendClientKeyPath");
  if ((clientCertificate === undefined) !== (clientKey === undefined))
    throw cliErrors.usage(
      "a client certificate and its key go together: give --backend-client-cert (or -path) and --backend-client-key (or -path)",
    );
  let caBundle: string | undefined;
  if (flags.backendCaFile !== undefined) {
    try {
      caBundle = await readFile(flags.backendCaFile, "utf8");
    } catch (error) {
      throw cliErrors.usage(
        `--backend-ca-file: cannot read ${flags.backendCaFile} (${(error as { code?: string }).code ?? error})`,
      );
    }
  }
  const tls = {
    ...(caBundle !== undefined ? { caBundle } : {}),
    ...(flags.backendCaPath !== undefined ? { caFile: flags.backendCaPath } : {}),
    ...(flags.backendTrustSystemCas ? { trustSystemCAs: true } : {}),
    ...(clientCertificate ? { clientCertificate } : {}),
    ...(clientKey ? { clientKey } : {}),
    ...(flags.backendServerName !== undefined ? { serverName: flags.backendServerName } : {}),
  };
  return Object.keys(tls).length > 0 ? tls : undefined;
}

/** A plan's backend TLS in a few words: no PEM, only where each part comes from. */
export function backendTlsText({ backendTls: tls }: Pick<PlanView, "backendTls">): string {
  if (!tls) return "system CAs, no client certificate";
  const from = (pem: { secretId?: string; file?: string } | undefined) =>
    pem?.secretId ? `secret ${pem.secretId}` : `gateway file ${pem?.file}`;
  const count = tls.caBundle?.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0;
  const ca = tls.caBundle
    ? `the plan's ${count} CA certificate(s)`
    : tls.caFile
      ? `CAs of gateway file ${tls.caFile}`
      : "system CAs";
  return [
    `trusts ${ca}${tls.trustSystemCAs ? " and the system CAs" : ""}`,
    tls.clientCertificate
      ? `client certificate from ${from(tls.clientCertificate)}, key from ${from(tls.clientKey)}`
      : "no client certificate",
    ...(tls.serverName ? [`server name ${tls.serverName}`] : []),
  ].join("; ");
}
