/** Products (the device profiles): transport, TCP settings, the default product, publication. */
import { defineModule } from '../../module.ts';
import { ProductRepository } from './product-repository.ts';
import { registerProductRoutes } from './product-routes.ts';
import { ProductService } from './product-service.ts';

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
  apiTags: { product: 'Products (device profiles): transport, TCP settings, default flag, publish' },
  build: ({ core, services }) => ({
    products: new ProductService({ db: core.db, bus: core.bus, products: new ProductRepository(core.db), categories: services.categories }),
  }),
  routes: registerProductRoutes,
});
