/** Products (the device profiles): transport, TCP settings, the default product, publication, provisioning. */
import { defineModule } from '../../module.ts';
import { ProductRepository } from './product-repository.ts';
import { registerProductRoutes } from './product-routes.ts';
import { ProductService } from './product-service.ts';
import m0011 from './migrations/0011-product-provisioning.sql';
import m0032 from './migrations/0032-product-modbus-polling.sql';

declare module '../../module.ts' {
  interface Services {
    products: ProductService;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** A product was published; the thing-model module publishes its model with it. */
    'product.published': { productId: string };
    'product.deleted': { productId: string };
  }
}

export const productModule = defineModule({
  name: 'product',
  needs: ['categories'],
  migrations: [
    { name: '0011-product-provisioning', sql: m0011 },
    { name: '0032-product-modbus-polling', sql: m0032 },
  ],
  apiTags: { product: 'Products (device profiles): transport, TCP settings, default flag, publish' },
  build: ({ core, services: { categories } }) => {
    const products = new ProductService({ db: core.db, bus: core.bus, products: new ProductRepository(core.db), categories });
    categories.countProductsWith((ids) => products.countByCategory(ids));
    return { products };
  },
  routes: registerProductRoutes,
});
