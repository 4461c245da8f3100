/**
 * The gRPC contestants' backend: a `@grpc/grpc-js` server answering `pets.v1.Pets/GetPet` with the
 * pet backend.ts would answer (pets-grpc.ts), over h2c. Started by run.ts as a child process; it
 * prints `listening grpc://<host:port>` once it accepts calls.
 *
 *   node bench/gateway/grpc-backend.ts [port]
 */
import { Server, ServerCredentials, type ServerUnaryCall, type sendUnaryData } from "@grpc/grpc-js";
import { GET_PET_PATH, petIdOf, petMessage } from "./pets-grpc.ts";

const bytes = (value: Buffer) => value;
const server = new Server();
server.addService(
  {
    GetPet: {
      path: GET_PET_PATH,
      requestStream: false,
      responseStream: false,
      requestSerialize: bytes,
      requestDeserialize: bytes,
      responseSerialize: bytes,
      responseDeserialize: bytes,
    },
  },
  {
    GetPet: (call: ServerUnaryCall<Buffer, Buffer>, reply: sendUnaryData<Buffer>) =>
      reply(null, petMessage(petIdOf(call.request))),
  },
);
server.bindAsync(`127.0.0.1:${Number(process.argv[2] ?? 0)}`, ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  console.log(`listening grpc://127.0.0.1:${port}`);
});
process.on("SIGTERM", () => process.exit(0));
