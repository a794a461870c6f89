/**
 * A small shop for the ER picture tests: two entities with relationships both ways, a self
 * reference, a DTO read by a use-case service, and a remote relationship to a federation member.
 * Also an `ergraph er --app` module (`apps` + `services`).
 */
import { z } from 'zod';
import { baseEntity, DefineSubset, GraphQLHandler, model, mutation, query, Relationship, buildList, buildObject } from 'ergraph';
import { RemoteRelationship, RemoteService } from 'ergraph/federation';
import { UseCaseAppConfig, UseCaseService } from 'ergraph/usecase';

const Base = baseEntity();
const reviews = new RemoteService('reviews');

const customers = [{ id: 1, name: 'Ada', referrerId: null as number | null }];
const orders = [{ id: 10, customerId: 1, total: 5.5, status: 'open' as const }];

export const Status = z.enum(['open', 'paid']).meta({ id: 'OrderStatus' });

@Base.entity
export class Customer extends model({ id: z.int(), name: z.string(), referrerId: z.int().nullable(), tags: z.array(z.string()) }) {
  static __relationships__ = [
    new Relationship({ fk: 'id', target: () => [Order], name: 'orders', loader: async (keys: readonly number[]) => buildList(orders.map((o) => new Order(o)), keys, (o) => o.customerId) }),
    new Relationship({ fk: 'referrerId', target: () => Customer, name: 'referrer', loader: async (keys: readonly number[]) => buildObject(customers.map((c) => new Customer(c)), keys, (c) => c.id) }),
    new RemoteRelationship({ fk: 'id', target: [reviews.Review], name: 'reviews', joinRemote: 'customerId', pagination: true }),
  ];

  @query({ args: { limit: z.int().default(10) }, returns: () => [Customer], description: 'Customers by name' })
  static async list({ limit }: { limit: number }) {
    return customers.slice(0, limit).map((c) => new Customer(c));
  }
}

@Base.entity
export class Order extends model({ id: z.int(), customerId: z.int(), total: z.number(), status: Status }) {
  static __relationships__ = [
    new Relationship({ fk: 'customerId', target: Customer, name: 'customer', loader: async (keys: readonly number[]) => buildObject(customers.map((c) => new Customer(c)), keys, (c) => c.id) }),
  ];

  @mutation({ args: { id: z.int() }, returns: () => Order })
  static async pay({ id }: { id: number }) {
    return new Order({ ...orders.find((o) => o.id === id)!, status: 'paid' });
  }
}

export class OrderSummary extends DefineSubset(Order, ['id', 'total']) {}

export class OrderService extends UseCaseService {
  @query({ returns: () => [OrderSummary], description: 'Open orders' })
  static async openOrders() {
    return orders.map((o) => new OrderSummary(o));
  }

  @query({ returns: z.int() })
  static async count() {
    return orders.length;
  }
}

export const diagram = Base.getDiagram();
export const apps = [{ name: 'shop', handler: new GraphQLHandler(diagram), description: 'A shop' }];
export const services = new UseCaseAppConfig({ name: 'shop', services: [OrderService] });
